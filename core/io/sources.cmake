list(APPEND RIGSMITH_CORE_SOURCES io/mesh_import.cpp)
list(APPEND RIGSMITH_CORE_SOURCES io/rig_file.cpp)
