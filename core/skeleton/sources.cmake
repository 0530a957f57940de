# core/skeleton: the geometric (curve) skeleton, its refinement, and the whole extraction stage.
list(APPEND RIGSMITH_CORE_SOURCES
  skeleton/curve_skeleton.cpp
  skeleton/refine.cpp
  skeleton/contacts.cpp
  skeleton/extract.cpp
)
list(APPEND RIGSMITH_CORE_SOURCES skeleton/end_nodes.cpp skeleton/humanoid_ends.cpp skeleton/root.cpp)
