#include "core/common/progress.h"

#include "core/common/error.h"

namespace rig {

void Progress::update(std::string_view step, double fraction) const
{
    if (report)
        report(step, fraction);
    checkCancelled();
}

void Progress::checkCancelled() const
{
    if (cancelled())
        throw Cancelled();
}

} // namespace rig
