list(APPEND RIGSMITH_CORE_SOURCES skin/skin_weights.cpp skin/segmentation_data.cpp)
