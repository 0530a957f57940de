list(APPEND RIGSMITH_CORE_SOURCES io/mesh_import.cpp)
