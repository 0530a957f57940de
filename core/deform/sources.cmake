list(APPEND RIGSMITH_CORE_SOURCES deform/pose.cpp)
