#pragma once
/// @file image_compare.h
/// Pixel comparisons for the GL tests: properties of frames, never bit-exact images.

#include <QImage>

#include <algorithm>
#include <cstdlib>

namespace rig::test {

/// Fraction of sampled pixels (every second row and column) whose colours
/// differ by more than 30 (sum over R, G, B) between two frames.
inline double imageDifference(const QImage& a, const QImage& b)
{
    long differ = 0, total = 0;
    for (int y = 0; y < std::min(a.height(), b.height()); y += 2)
        for (int x = 0; x < std::min(a.width(), b.width()); x += 2) {
            const QRgb p = a.pixel(x, y), q = b.pixel(x, y);
            differ += (std::abs(qRed(p) - qRed(q)) + std::abs(qGreen(p) - qGreen(q)) + std::abs(qBlue(p) - qBlue(q))) > 30;
            ++total;
        }
    return total ? double(differ) / double(total) : 0.0;
}

} // namespace rig::test
