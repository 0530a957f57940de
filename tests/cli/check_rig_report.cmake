cmake_minimum_required(VERSION 3.25)
# Checks that a `rigsmith rig --report` names every pipeline stage (issue 5: each one can be timed).
include(${CMAKE_CURRENT_LIST_DIR}/report_checks.cmake)
file(READ ${REPORT} json)
require_report_stages("${json}" load voxelize fill thin graph refine label fit segment weights retarget export)
