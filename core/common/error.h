#pragma once
/// @file error.h
/// The exception hierarchy of the engine. Bad input and I/O failures throw a
/// `rig::Error` (or a subclass) whose message a user can act on: it names the
/// file or the function and says what is wrong. Broken internal invariants use
/// `assert`; "not found" is `std::optional`.

#include <stdexcept>
#include <string>

namespace rig {

/// Base of every error the engine reports to a user.
class Error : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

/// A file could not be read, parsed or written. The message names the file.
class IoError : public Error {
public:
    using Error::Error;
};

/// The input data is unusable (NaN coordinates, no triangles, absurd sizes...).
class InvalidInput : public Error {
public:
    using Error::Error;
};

/// The user cancelled a long-running stage.
class Cancelled : public Error {
public:
    Cancelled() : Error("cancelled") {}
};

} // namespace rig
