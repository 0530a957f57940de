list(APPEND RIGSMITH_CORE_SOURCES deform/pose.cpp)
list(APPEND RIGSMITH_CORE_SOURCES deform/skin_binding.cpp deform/lbs.cpp deform/dqs.cpp deform/twist_lbs.cpp deform/bar_experiment.cpp deform/skinning_timing.cpp)
