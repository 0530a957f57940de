cmake_minimum_required(VERSION 3.25)
# Checks a `rigsmith compare-weights --report` file: the documented keys, the
# number of poses (POSES) and where they came from (POSE_SOURCE).
include(${CMAKE_CURRENT_LIST_DIR}/report_checks.cmake)
file(READ ${REPORT} json)
require_report_keys("${json}" command input stages total_seconds weights mean_l1 precision recall
  mean_distance_percent max_distance_percent poses random_poses pose_source compared_vertices unweighted_vertices)
require_report_stages("${json}" load read compare)
string(JSON poses GET "${json}" poses)
string(JSON source GET "${json}" pose_source)
if(NOT poses EQUAL POSES)
  message(FATAL_ERROR "report poses: ${poses}, expected ${POSES}")
endif()
if(NOT source STREQUAL POSE_SOURCE)
  message(FATAL_ERROR "report pose_source: '${source}', expected '${POSE_SOURCE}'")
endif()
