list(APPEND RIGSMITH_CORE_SOURCES skin/skin_weights.cpp skin/segmentation_data.cpp)
list(APPEND RIGSMITH_CORE_SOURCES skin/segmentation.cpp skin/weights_gaussian.cpp)
list(APPEND RIGSMITH_CORE_SOURCES skin/weights_heat.cpp skin/weights_geodesic_voxel.cpp skin/weights_atlas.cpp skin/skinning.cpp skin/limbs.cpp skin/bone_segments.cpp skin/weight_methods.cpp skin/deform_joints.cpp)
list(APPEND RIGSMITH_CORE_SOURCES skin/part_binding.cpp)
