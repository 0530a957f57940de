#include "core/common/dedup.h"

#include <map>
#include <random>

#include <gtest/gtest.h>

namespace rig {
namespace {

// Against a std::map of the values: classes numbered by first occurrence,
// `firsts` the first item of each, equal items in one class - also when every
// item hashes alike (all collisions: the probe must compare, not trust the hash).
TEST(GroupEqual, ClassesInFirstOccurrenceOrderEvenWhenEveryHashCollides)
{
    std::mt19937 rng(7);
    for (const bool collide : {false, true})
        for (const int n : {0, 1, 5, 1000, 20000}) {
            if (collide && n > 1000)
                continue; // quadratic by design when every hash collides: the small sizes show correctness
            std::vector<int> value(static_cast<size_t>(n));
            std::uniform_int_distribution<int> pick(0, std::max(1, n / 3));
            for (int& v : value)
                v = pick(rng);
            std::vector<int> firsts;
            const std::vector<int> classes = groupEqual(
                n, [&](int i) { return collide ? 42 : value[static_cast<size_t>(i)]; },
                [&](int a, int b) { return value[static_cast<size_t>(a)] == value[static_cast<size_t>(b)]; }, firsts);
            std::map<int, int> classOfValue;
            std::vector<int> expectedFirsts;
            ASSERT_EQ(classes.size(), static_cast<size_t>(n));
            for (int i = 0; i < n; ++i) {
                auto [it, fresh] = classOfValue.try_emplace(value[static_cast<size_t>(i)], int(expectedFirsts.size()));
                if (fresh)
                    expectedFirsts.push_back(i);
                EXPECT_EQ(classes[static_cast<size_t>(i)], it->second) << "item " << i;
            }
            EXPECT_EQ(firsts, expectedFirsts);
        }
}

} // namespace
} // namespace rig
