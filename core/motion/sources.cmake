list(APPEND RIGSMITH_CORE_SOURCES motion/motion.cpp motion/bvh_file.cpp motion/joint_names.cpp motion/retarget.cpp motion/retargeted_motion.cpp motion/sample_clip.cpp)
