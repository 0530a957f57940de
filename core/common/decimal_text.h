#pragma once
/// @file decimal_text.h
/// Reading decimal text fast, for text formats of millions of numbers (BVH
/// frames: 96 million values at 10^6 frames, issue 47), with exactly the
/// result of the standard library: the common case takes an exact path, the
/// rest is left to `std::from_chars`.

namespace rig {

/// Reads "[-]DIGITS[.DIGITS]" from [first, last) when it ends there or at a
/// blank (' ', '\t', '\r', '\v', '\f') and has at most 19 digits, a mantissa
/// m <= 2^53 and k <= 22 decimals: then `v` = m / 10^k, one correctly rounded
/// division of two exact doubles, which is what `std::from_chars` gives
/// (Clinger's fast path: W. D. Clinger, "How to read floating point numbers
/// accurately", PLDI 1990). Sets `stop` after the number and returns true;
/// returns false, touching nothing, for any other text (exponents, a '+',
/// ".5", "5.", longer mantissas), which the caller reads with from_chars.
bool parseSimpleDecimal(const char* first, const char* last, double& v, const char*& stop);

} // namespace rig
