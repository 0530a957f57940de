# The files Rigsmith writes (and reads back): glTF, meshes, rigs, weights, projects.
list(APPEND RIGSMITH_CORE_SOURCES export/gltf_export.cpp export/animation_info.cpp export/mesh_write.cpp
  export/project_file.cpp export/rig_file.cpp export/strict_json.cpp export/weights_file.cpp)
