#pragma once
/// @file vertex_pool.h
/// A persistent pool of worker threads for loops over many independent
/// indices that run again and again (a deformer's vertex loop every frame,
/// the colours of the Gaussian weights' smoothing sweeps): the caller takes
/// chunks alongside the workers from a shared counter, so a worker the OS
/// does not schedule costs the caller little (issue 20, item 4).

#include "core/common/parallel.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include <time.h>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace rig {

/// Persistent worker threads for vertex loops (the deformers'): started once
/// (on first use, growing to the largest thread count asked for). A job's
/// range is cut into small chunks (`kChunksPerThread` per thread, at least
/// `kMinChunk` indices each) that the caller and the workers take from a
/// shared counter until none is left, so a worker that the OS has not
/// scheduled (another process busy on its core) costs the caller nothing but
/// the chunk it may hold: before, each thread had one fixed half and the
/// caller waited for a descheduled worker's, and two threads ran 2.1 times
/// slower than one with a competing busy loop (issue 20, item 4).
/// Between jobs a worker spins for a short while (`kSpin`) before parking on
/// a condition variable, and the caller spins for the chunks in flight before
/// blocking: a per-frame deformation of 100k vertices takes a few tenths of a
/// millisecond, about what waking a parked thread costs in a virtual machine.
/// Each job is its own shared object: a worker that wakes after the job it
/// was woken for has finished finds its counter exhausted and never touches
/// its body. One job at a time: a call made while the pool is busy (another
/// thread deforming, or a nested call) falls back to `parallelFor()`.
class VertexPool {
public:
    /// How long an idle worker (or the waiting caller) spins before blocking.
    static constexpr std::chrono::microseconds kSpin{300};
    static constexpr int kChunksPerThread = 8;
    static constexpr std::ptrdiff_t kMinChunk = 1024;
    /// How long the caller goes alone once the helpers have cost more than
    /// they saved (see `judge()`).
    static constexpr std::chrono::milliseconds kSerialFor{200};
    /// The helpers' balance (see `judge()`): the share of it each job
    /// forgets, the credit it starts from, and what a job no helper joined costs.
    static constexpr int kForget = 16;
    static constexpr std::chrono::microseconds kCredit{100};
    static constexpr std::chrono::microseconds kUnhelped{10};

    ~VertexPool()
    {
        {
            std::lock_guard lock(m_);
            stop_.store(true);
        }
        wake_.notify_all();
        for (std::thread& t : workers_)
            t.join();
    }

    /// Calls body(begin, end) on disjoint chunks covering [0, n), on up to
    /// `threads` threads, the caller among them; returns when all are done.
    void run(std::ptrdiff_t n, int threads, const std::function<void(std::ptrdiff_t, std::ptrdiff_t)>& body)
    {
        std::unique_lock job(job_, std::try_to_lock);
        if (!job.owns_lock()) {
            parallelFor(n, threads, 1, body);
            return;
        }
        const auto start = std::chrono::steady_clock::now();
        if (start < serialUntil_) { // helpers have been losing: the caller alone for a while
            body(0, n);
            return;
        }
        const std::chrono::nanoseconds cpuStart = callerCpu();
        auto work = std::make_shared<Job>();
        work->body = &body;
        work->n = n;
        work->chunks = static_cast<int>(std::clamp<std::ptrdiff_t>(n / kMinChunk, threads,
                                                                   std::ptrdiff_t{threads} * kChunksPerThread));
        {
            std::lock_guard lock(m_);
            while (static_cast<int>(workers_.size()) < threads - 1)
                workers_.emplace_back([this, g = generation_.load()] { loop(g); });
            current_ = work;
            generation_.fetch_add(1, std::memory_order_release); // publishes the job to spinning workers
        }
        wake_.notify_all(); // and to parked ones
        const int mine = work->take().chunks;
        const auto callerDone = std::chrono::steady_clock::now();
        const std::chrono::nanoseconds cpuMine = callerCpu() - cpuStart;
        const auto until = callerDone + kSpin;
        while (!work->done() && std::chrono::steady_clock::now() < until)
            pause();
        if (!work->done()) {
            std::unique_lock lock(m_);
            done_.wait(lock, [&] { return work->done(); });
        }
        {
            std::lock_guard lock(m_);
            current_.reset();
        }
        judge(callerDone, std::chrono::steady_clock::now(), cpuMine, mine, work->chunks);
    }

private:
    struct Job {
        const std::function<void(std::ptrdiff_t, std::ptrdiff_t)>* body = nullptr;
        std::ptrdiff_t n = 0;
        int chunks = 1;
        std::atomic<int> next{0}, finished{0};

        bool done() const { return finished.load(std::memory_order_acquire) == chunks; }
        struct Taken {
            int chunks = 0;    ///< How many this thread ran.
            bool last = false; ///< It finished the job's last one.
        };
        /// Runs chunks until none is left.
        Taken take()
        {
            Taken t;
            for (int c; (c = next.fetch_add(1, std::memory_order_relaxed)) < chunks;) {
                (*body)(n * c / chunks, n * (c + 1) / chunks);
                ++t.chunks;
                t.last = finished.fetch_add(1, std::memory_order_acq_rel) + 1 == chunks;
            }
            return t;
        }
    };

    /// Whether the helpers pay, as a balance of time: each job adds what the
    /// helpers saved the caller, their chunks at the caller's own CPU time
    /// per chunk (`cpuMine` / `mine`: CPU time, so that the caller's own
    /// preemption does not inflate it), less how long the caller then waited
    /// for them (`end - callerDone`); a job the caller ran wholly (no helper
    /// came: spinning for jobs, they only took CPU time from the caller and
    /// other processes) costs `kUnhelped` more. The balance forgets
    /// 1/`kForget` of itself a job. When it goes negative the caller runs the
    /// jobs alone for `kSerialFor`, then tries the helpers again from
    /// `kCredit` (about ten jobs without a helper, or one wait longer than
    /// the credit the helpers earned). With a
    /// busy loop on the other core a helper now and then keeps the caller
    /// waiting for the rest of a time slice (milliseconds) while its other
    /// jobs save tens of microseconds: counting losses in a row, the wins in
    /// between kept the helpers in, and the rigid-blended deformer (five jobs
    /// a frame) ran up to 2.2 times slower on two threads than on one
    /// (issue 46; before, issue 20 item 4).
    void judge(std::chrono::steady_clock::time_point callerDone, std::chrono::steady_clock::time_point end,
               std::chrono::nanoseconds cpuMine, int mine, int chunks)
    {
        const double perChunk = mine > 0 ? double(cpuMine.count()) / mine : 0.0;
        using ns = std::chrono::nanoseconds;
        const double saved = mine >= chunks ? -double(ns(kUnhelped).count()) : perChunk * (chunks - mine);
        const double waited = double(std::chrono::duration_cast<ns>(end - callerDone).count());
        balance_ += saved - waited - balance_ / kForget;
        if (balance_ < 0.0) {
            serialUntil_ = end + kSerialFor;
            balance_ = double(ns(kCredit).count());
        }
    }

    /// CPU time of the calling thread (wall time where there is no such clock).
    static std::chrono::nanoseconds callerCpu()
    {
#if defined(CLOCK_THREAD_CPUTIME_ID)
        timespec t{};
        if (::clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t) == 0)
            return std::chrono::seconds(t.tv_sec) + std::chrono::nanoseconds(t.tv_nsec);
#endif
        return std::chrono::steady_clock::now().time_since_epoch();
    }

    static void pause()
    {
#if defined(__SSE2__)
        _mm_pause();
#endif
    }

    /// A worker: takes chunks of each job posted after generation `seen`.
    void loop(std::uint64_t seen)
    {
        for (;;) {
            const auto until = std::chrono::steady_clock::now() + kSpin;
            while (generation_.load(std::memory_order_acquire) == seen && !stop_.load(std::memory_order_relaxed) &&
                   std::chrono::steady_clock::now() < until)
                pause();
            std::shared_ptr<Job> work;
            {
                std::unique_lock lock(m_);
                wake_.wait(lock, [&] { return stop_.load() || generation_.load() != seen; });
                if (stop_.load())
                    return;
                seen = generation_.load(std::memory_order_acquire);
                work = current_;
            }
            if (work && work->take().last) {
                std::lock_guard lock(m_); // the caller may be about to block on done_
                done_.notify_one();
            }
        }
    }

    std::mutex job_, m_;
    std::condition_variable wake_, done_;
    std::vector<std::thread> workers_;
    std::shared_ptr<Job> current_;            // the job in progress, under m_
    std::atomic<std::uint64_t> generation_{0};
    std::atomic<bool> stop_{false};
    double balance_ = double(std::chrono::nanoseconds(kCredit).count()); // ns, under job_
    std::chrono::steady_clock::time_point serialUntil_; // under job_
};

/// The shared pool (the deformers', the weights' smoothing).
inline VertexPool& vertexPool()
{
    static VertexPool pool;
    return pool;
}

/// `parallelFor()` on the persistent pool (results do not depend on the cut:
/// every vertex is computed on its own), on as many threads as `parallelFor()`
/// would use for `minChunk` indices per thread.
template <class Body>
void parallelVertices(std::ptrdiff_t n, int threads, std::ptrdiff_t minChunk, const Body& body)
{
    if (const int t = chunksOrRunHere(n, threads, minChunk, body); t > 0)
        vertexPool().run(n, t, std::function<void(std::ptrdiff_t, std::ptrdiff_t)>(std::cref(body)));
}

} // namespace rig
