#pragma once
/// @file parallel.h
/// A minimal fork-join parallel-for over an index range, for the per-vertex
/// loops of the deformers: the range is cut into one contiguous chunk per
/// thread (so each thread streams its own slice of the arrays), the calling
/// thread runs the first chunk, and the call returns when all are done.
/// Threads are started per call (tens of microseconds), which is why small
/// ranges run on the calling thread only (`minChunk`).

#include <algorithm>
#include <cstddef>
#include <thread>
#include <vector>

namespace rig {

/// The thread count to use for a request: `requested` if positive, otherwise
/// the hardware concurrency (at least 1).
inline int resolveThreadCount(int requested)
{
    if (requested > 0)
        return requested;
    // Asked once: glibc reads /sys/devices/system/cpu/online on every call
    // (24 times in one `rig` of a 4k-vertex mesh).
    static const unsigned n = std::thread::hardware_concurrency();
    return n > 0 ? static_cast<int>(n) : 1;
}

/// How many chunks `parallelFor()` (and the deformers' pool) cut [0, n) into:
/// the thread count, but no chunk smaller than `minChunk` indices.
inline int chunkCount(std::ptrdiff_t n, int threads, std::ptrdiff_t minChunk)
{
    const std::ptrdiff_t maxChunks = std::max<std::ptrdiff_t>(1, n / std::max<std::ptrdiff_t>(1, minChunk));
    return static_cast<int>(std::min<std::ptrdiff_t>(resolveThreadCount(threads), maxChunks));
}

/// The chunk count for [0, n) (`chunkCount()`), or 0 when there is nothing
/// left to fork: n <= 0, or one chunk, which this runs on the caller as
/// body(0, n). The front ends below fork only when it returns 2 or more.
template <class Body>
int chunksOrRunHere(std::ptrdiff_t n, int threads, std::ptrdiff_t minChunk, const Body& body)
{
    if (n <= 0)
        return 0;
    const int t = chunkCount(n, threads, minChunk);
    if (t <= 1) {
        body(std::ptrdiff_t{0}, n);
        return 0;
    }
    return t;
}

/// Calls body(begin, end) on disjoint chunks covering [0, n), on up to
/// `threads` threads (0 = hardware concurrency) with at least `minChunk`
/// indices per chunk. Expects body not to throw (it runs on worker threads).
template <class Body>
void parallelFor(std::ptrdiff_t n, int threads, std::ptrdiff_t minChunk, const Body& body)
{
    const int t = chunksOrRunHere(n, threads, minChunk, body);
    if (t == 0)
        return;
    std::vector<std::jthread> workers;
    workers.reserve(static_cast<size_t>(t - 1));
    for (int i = 1; i < t; ++i)
        workers.emplace_back([&body, n, t, i] { body(n * i / t, n * (i + 1) / t); });
    body(std::ptrdiff_t{0}, n / t);
} // the jthreads join here

} // namespace rig
