list(APPEND RIGSMITH_CORE_SOURCES rig/skeleton.cpp)
