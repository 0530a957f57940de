# core/voxel: voxel grid, surface voxelization, interior fill, thinning, distance transform.
list(APPEND RIGSMITH_CORE_SOURCES
  voxel/voxel_grid.cpp
  voxel/triangle_box.cpp
  voxel/voxelize.cpp
  voxel/fill.cpp
  voxel/thinning.cpp
  voxel/distance_transform.cpp
)
