list(APPEND RIGSMITH_CORE_SOURCES io/mesh_import.cpp io/assimp_source.cpp io/source_mesh.cpp io/assimp_animation.cpp io/animation_poses.cpp)
list(APPEND RIGSMITH_CORE_SOURCES io/rig_file.cpp)
list(APPEND RIGSMITH_CORE_SOURCES io/gltf_export.cpp io/animation_info.cpp io/project_file.cpp io/strict_json.cpp io/weights_file.cpp)
list(APPEND RIGSMITH_CORE_SOURCES io/character_stream.cpp io/guarded_import.cpp io/declared_size.cpp io/x_declared.cpp io/importer_child.cpp io/mesh_write.cpp)
