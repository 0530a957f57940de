list(APPEND RIGSMITH_CORE_SOURCES mesh/volume.cpp mesh/laplacian.cpp mesh/vertex_adjacency.cpp mesh/orientation.cpp mesh/point_grid.cpp mesh/subdivide.cpp)
