# Reading characters: Assimp in an importer process, the pre-scan, the stream between them.
list(APPEND RIGSMITH_CORE_SOURCES import/mesh_import.cpp import/assimp_source.cpp import/source_mesh.cpp
  import/assimp_animation.cpp import/animation_poses.cpp import/character_stream.cpp import/guarded_import.cpp
  import/declared_size.cpp import/x_declared.cpp import/importer_child.cpp)
