list(APPEND RIGSMITH_CORE_SOURCES project/character_source.cpp project/rig_project.cpp)
list(APPEND RIGSMITH_CORE_SOURCES project/project_io.cpp project/pipeline.cpp project/character_orientation.cpp)
