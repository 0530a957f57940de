// A fixture of the layering check: core/mesh reaching up into core/rig.
#pragma once
#include "core/rig/skeleton.h"
