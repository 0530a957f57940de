# Fails the build when core/ breaks its layers:
#  - a file under CORE_DIR includes a Qt, OpenGL or GLM header;
#  - a file of one folder includes a header of a folder above it in the
#    declared order (bottom first, the data flow of docs/architecture.md).
#    A folder may include its own headers and any folder below it.
# A folder under core/ that is not in the order fails too: place it.
set(order common mesh voxel skeleton rig character import motion skin deform eval export project)

file(GLOB_RECURSE files RELATIVE ${CORE_DIR} ${CORE_DIR}/*.h ${CORE_DIR}/*.cpp)
set(bad "")
foreach(f IN LISTS files)
  file(STRINGS ${CORE_DIR}/${f} lines REGEX "^[ \t]*#[ \t]*include[ \t]*[<\"](Q[A-Za-z]|qt|GL/|glad|glm/|epoxy/)")
  if(lines)
    list(APPEND bad "${f}: core/ must stay Qt-, GL- and GLM-free: ${lines}")
  endif()
  string(REGEX MATCH "^[^/]+" folder "${f}")
  list(FIND order "${folder}" level)
  if(level LESS 0)
    list(APPEND bad "${f}: folder core/${folder} is not in the layer order of scripts/check_core_layering.cmake")
    continue()
  endif()
  file(STRINGS ${CORE_DIR}/${f} includes REGEX "^[ \t]*#[ \t]*include[ \t]*\"core/[a-z_]+/")
  foreach(line IN LISTS includes)
    string(REGEX REPLACE ".*\"core/([a-z_]+)/.*" "\\1" target "${line}")
    list(FIND order "${target}" targetLevel)
    if(targetLevel GREATER level)
      list(APPEND bad "${f}: core/${folder} includes core/${target}, which is above it (${line})")
    endif()
  endforeach()
endforeach()
if(bad)
  string(REPLACE ";" "\n" bad "${bad}")
  string(REPLACE ";" " < " order_text "${order}")
  message(FATAL_ERROR "core/ layering (order: ${order_text}):\n${bad}")
endif()
