# Helpers of the check_*_report.cmake scripts (included, not run):
# the common report schema and the stage names of a --report file.

# Fails unless the JSON text `json` has every key in ARGN at its top level.
function(require_report_keys json)
  foreach(key ${ARGN})
    string(JSON value ERROR_VARIABLE err GET "${json}" ${key})
    if(err)
      message(FATAL_ERROR "report lacks '${key}': ${err}")
    endif()
  endforeach()
endfunction()

# Fails unless the report's "stages" name every stage in ARGN.
function(require_report_stages json)
  string(JSON n LENGTH "${json}" stages)
  set(names "")
  math(EXPR last "${n} - 1")
  foreach(i RANGE ${last})
    string(JSON name GET "${json}" stages ${i} name)
    list(APPEND names ${name})
  endforeach()
  foreach(stage ${ARGN})
    if(NOT stage IN_LIST names)
      message(FATAL_ERROR "report stages lack '${stage}': ${names}")
    endif()
  endforeach()
endfunction()
