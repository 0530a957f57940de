#pragma once
/// @file progress.h
/// Progress reporting and cooperative cancellation for long stages. A stage
/// calls `update()` now and then; the UI's worker thread forwards the fraction
/// to a progress bar and sets the cancel flag when the user presses Cancel.

#include <atomic>
#include <functional>
#include <string_view>

namespace rig {

struct Progress {
    /// Called with the name of the running step and its completion in [0, 1].
    /// May be empty. Called from the worker thread.
    std::function<void(std::string_view step, double fraction)> report;
    /// Set to true (from any thread) to ask the stage to stop. May be null.
    const std::atomic<bool>* cancelFlag = nullptr;

    /// Reports progress, then throws `rig::Cancelled` if cancellation was asked.
    void update(std::string_view step, double fraction) const;
    bool cancelled() const { return cancelFlag && cancelFlag->load(std::memory_order_relaxed); }
    /// Throws `rig::Cancelled` if cancellation was asked.
    void checkCancelled() const;
};

} // namespace rig
