list(APPEND RIGSMITH_CORE_SOURCES project/character_source.cpp project/rig_project.cpp)
