list(APPEND RIGSMITH_CORE_SOURCES deform/skin_binding.cpp deform/lbs.cpp deform/dqs.cpp deform/twist_lbs.cpp deform/deformers.cpp)
