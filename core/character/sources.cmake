# The bundled procedural humanoid: primitives, smooth union, polygonizer.
list(APPEND RIGSMITH_CORE_SOURCES
  character/humanoid.cpp
  character/implicit_surface.cpp
  character/marching_tetrahedra.cpp
)
