#pragma once
/// @file expect_error.h
/// `expectError<E>(f, fragment)`: `f()` must throw an `E` whose message
/// contains `fragment` (the tests check that messages name the problem);
/// `errorMessage<E>(f)`: the message of the `E` that `f()` throws, for exact
/// comparisons ("no error" when it throws none).

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

template <typename E, typename F>
std::string errorMessage(F f)
{
    try {
        f();
    } catch (const E& e) {
        return e.what();
    }
    return "no error";
}

} // namespace rig::test
