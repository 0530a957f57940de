# rigsmith-import: the importer process (issue 21), core only (no Qt), built
# beside `rigsmith` so that the application finds it; core also knows its
# build-tree path (for the tests and the benches).
add_executable(rigsmith-import ${CMAKE_CURRENT_LIST_DIR}/rigsmith_import.cpp)
target_link_libraries(rigsmith-import PRIVATE rigsmith_core)
set_target_properties(rigsmith-import PROPERTIES RUNTIME_OUTPUT_DIRECTORY ${CMAKE_BINARY_DIR}/app)
set_source_files_properties(${CMAKE_CURRENT_LIST_DIR}/../core/import/guarded_import.cpp TARGET_DIRECTORY rigsmith_core
  PROPERTIES COMPILE_DEFINITIONS RIGSMITH_IMPORTER_PATH="${CMAKE_BINARY_DIR}/app/rigsmith-import")
