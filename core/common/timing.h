#pragma once
/// @file timing.h
/// Wall-clock timings of pipeline stages, as reported by `--report` and shown in
/// the UI: a list of (name, seconds) in execution order.

#include <chrono>
#include <string>
#include <vector>

namespace rig {

struct StageTiming {
    std::string name;
    double seconds = 0.0;
};

using StageTimings = std::vector<StageTiming>;

/// Measures consecutive steps: `lap("voxelize")` records the time since the
/// previous lap (or construction) under that name.
class StageClock {
public:
    explicit StageClock(StageTimings& out) : m_out(out), m_last(Clock::now()) {}
    void lap(std::string name)
    {
        const auto now = Clock::now();
        m_out.push_back({std::move(name), std::chrono::duration<double>(now - m_last).count()});
        m_last = now;
    }
    /// Records stages timed elsewhere (a stage function's own timings) and
    /// restarts the clock after them.
    void add(const StageTimings& timings)
    {
        m_out.insert(m_out.end(), timings.begin(), timings.end());
        m_last = Clock::now();
    }

private:
    using Clock = std::chrono::steady_clock;
    StageTimings& m_out;
    Clock::time_point m_last;
};

/// Sum of the seconds of all stages.
inline double totalSeconds(const StageTimings& t)
{
    double s = 0.0;
    for (const auto& x : t)
        s += x.seconds;
    return s;
}

} // namespace rig
