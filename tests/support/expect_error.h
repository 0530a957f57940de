#pragma once
/// @file expect_error.h
/// `expectError<E>(f, fragment)`: `f()` must throw an `E` whose message
/// contains `fragment` (the tests check that messages name the problem).

#include <gtest/gtest.h>

#include <string>

namespace rig::test {

template <typename E, typename F>
void expectError(F f, const std::string& fragment)
{
    try {
        f();
        FAIL() << "expected an error containing '" << fragment << "'";
    } catch (const E& e) {
        EXPECT_NE(std::string(e.what()).find(fragment), std::string::npos) << e.what();
    }
}

} // namespace rig::test
