list(APPEND RIGSMITH_CORE_SOURCES rig/skeleton.cpp rig/pose.cpp rig/pose_frames.cpp)
list(APPEND RIGSMITH_CORE_SOURCES rig/template.cpp rig/fit_template.cpp rig/fit_lines.cpp rig/fit_checks.cpp)
list(APPEND RIGSMITH_CORE_SOURCES rig/humanoid_check.cpp rig/fingers.cpp rig/bone_names.cpp rig/joint_names.cpp)
