#include "core/motion/bvh_file.h"

#include "core/common/error.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <numbers>
#include <random>
#include <sstream>

#include <unistd.h>

namespace rig {
namespace {

// A small valid file; the tests below break it one line at a time, so the
// line numbers matter.
constexpr std::string_view kBase = "HIERARCHY\n"                                                         // 1
                                   "ROOT Hips\n"                                                         // 2
                                   "{\n"                                                                 // 3
                                   "\tOFFSET 0 0 0\n"                                                    // 4
                                   "\tCHANNELS 6 Xposition Yposition Zposition Zrotation Yrotation Xrotation\n" // 5
                                   "\tJOINT Chest\n"                                                     // 6
                                   "\t{\n"                                                               // 7
                                   "\t\tOFFSET 0 10 0\n"                                                 // 8
                                   "\t\tCHANNELS 3 Zrotation Xrotation Yrotation\n"                      // 9
                                   "\t\tEnd Site\n"                                                      // 10
                                   "\t\t{\n"                                                             // 11
                                   "\t\t\tOFFSET 0 5 0\n"                                                // 12
                                   "\t\t}\n"                                                             // 13
                                   "\t}\n"                                                               // 14
                                   "}\n"                                                                 // 15
                                   "MOTION\n"                                                            // 16
                                   "Frames: 2\n"                                                         // 17
                                   "Frame Time: 0.0333333\n"                                             // 18
                                   "1 2 3 10 20 30 40 50 60\n"                                           // 19
                                   "4 5 6 0 0 0 0 0 0\n";                                                // 20

std::vector<std::string> lines(std::string_view text)
{
    std::vector<std::string> out;
    std::istringstream in{std::string(text)};
    for (std::string l; std::getline(in, l);)
        out.push_back(l);
    return out;
}

std::string join(const std::vector<std::string>& ls)
{
    std::string s;
    for (const auto& l : ls)
        s += l + "\n";
    return s;
}

/// kBase with line n (from 1) replaced.
std::string withLine(int n, const std::string& replacement)
{
    auto ls = lines(kBase);
    ls[static_cast<size_t>(n - 1)] = replacement;
    return join(ls);
}

/// kBase without line n.
std::string withoutLine(int n)
{
    auto ls = lines(kBase);
    ls.erase(ls.begin() + (n - 1));
    return join(ls);
}

/// kBase with a line inserted so that it becomes line n.
std::string insertLine(int n, const std::string& text)
{
    auto ls = lines(kBase);
    ls.insert(ls.begin() + (n - 1), text);
    return join(ls);
}

/// kBase up to and including line n.
std::string firstLines(int n)
{
    auto ls = lines(kBase);
    ls.resize(static_cast<size_t>(n));
    return join(ls);
}

std::filesystem::path tempPath(const std::string& name)
{
    return std::filesystem::temp_directory_path() / ("rigsmith_bvh_test_" + name);
}

/// Expects an IoError "t.bvh:LINE: ..." whose message contains `fragment`,
/// from parseBvh() and, the same after the file name, from readBvh() of the
/// text as a file (BvhFrameReader: the file in pieces, the frames in blocks).
void expectError(const std::string& text, int line, const std::string& fragment, const BvhReadOptions& options = {})
{
    std::string problem;
    try {
        const Motion m = parseBvh(text, "t.bvh", options);
        ADD_FAILURE() << "no error; expected line " << line << ": " << fragment << "\n" << text;
    } catch (const IoError& e) {
        const std::string msg = e.what();
        const std::string prefix = "t.bvh:" + std::to_string(line) + ": ";
        EXPECT_EQ(msg.substr(0, prefix.size()), prefix) << msg;
        EXPECT_NE(msg.find(fragment), std::string::npos) << "'" << fragment << "' not in: " << msg;
        problem = msg.substr(std::string("t.bvh").size());
    }
    const auto path = tempPath("error_" + std::to_string(::getpid()) + ".bvh");
    std::ofstream(path, std::ios::binary) << text;
    try {
        const Motion m = readBvh(path.string(), options);
        ADD_FAILURE() << "readBvh: no error; expected line " << line << ": " << fragment << "\n" << text;
    } catch (const IoError& e) {
        EXPECT_EQ(std::string(e.what()), path.string() + problem) << "readBvh and parseBvh differ";
    }
    std::filesystem::remove(path);
}

void expectSameMotion(const Motion& a, const Motion& b, double tolerance = 0.0)
{
    EXPECT_EQ(a.names, b.names);
    EXPECT_EQ(a.parents, b.parents);
    EXPECT_EQ(a.channels, b.channels);
    EXPECT_EQ(a.channelStarts, b.channelStarts);
    EXPECT_EQ(a.endSiteParents, b.endSiteParents);
    EXPECT_NEAR(a.frameTime, b.frameTime, tolerance);
    ASSERT_EQ(a.offsets.rows(), b.offsets.rows());
    EXPECT_LE((a.offsets - b.offsets).cwiseAbs().maxCoeff(), tolerance);
    ASSERT_EQ(a.endSiteOffsets.rows(), b.endSiteOffsets.rows());
    if (a.endSiteOffsets.rows() > 0) {
        EXPECT_LE((a.endSiteOffsets - b.endSiteOffsets).cwiseAbs().maxCoeff(), tolerance);
    }
    ASSERT_EQ(a.frames.rows(), b.frames.rows());
    ASSERT_EQ(a.frames.cols(), b.frames.cols());
    if (a.frames.size() > 0) {
        EXPECT_LE((a.frames - b.frames).cwiseAbs().maxCoeff(), tolerance);
    }
}

std::string replaceAll(std::string s, std::string_view from, std::string_view to)
{
    for (size_t at = s.find(from); at != std::string::npos; at = s.find(from, at + to.size()))
        s.replace(at, from.size(), to);
    return s;
}

// ---------------------------------------------------------------- invalid input first

TEST(BvhFile, TheBaseFileIsValid)
{
    const Motion m = parseBvh(kBase, "t.bvh");
    EXPECT_NO_THROW(validateMotion(m));
    EXPECT_EQ(m.names, (std::vector<std::string>{"Hips", "Chest"}));
    EXPECT_EQ(m.frameCount(), 2);
    EXPECT_EQ(m.channelCount(), 9);
    EXPECT_DOUBLE_EQ(m.frames(0, 8), 60.0);
}

TEST(BvhFile, StructuralErrorsNameTheLine)
{
    expectError("", 1, "empty");
    expectError("\n\n", 2, "empty");
    expectError("HELLO\n", 1, "expected HIERARCHY");
    expectError("HIERARCHY\nMOTION\nFrames: 0\nFrame Time: 0.1\n", 2, "no ROOT");
    expectError("HIERARCHY\n", 1, "no ROOT");
    expectError("HIERARCHY extra\n", 1, "unexpected 'extra'");
    expectError(withLine(2, "JOINT Hips"), 2, "expected ROOT");
    expectError(withLine(2, "ROOT"), 2, "without a name");
    expectError(withLine(9, "\t\tCHANNELZ 3 Zrotation Xrotation Yrotation"), 9, "unknown keyword 'CHANNELZ'");
    expectError(withoutLine(7), 7, "expected '{' after JOINT Chest");
    expectError(withoutLine(14), 15, "MOTION before the end of joint 'Hips'");
    expectError(insertLine(16, "}"), 16, "unmatched '}'");
    expectError(insertLine(7, "{"), 8, "unexpected '{'");
    expectError(firstLines(10), 10, "expected '{' after End Site, found the end of the file");
    expectError(firstLines(12), 12, "the file ends inside the End Site of joint 'Chest' opened on line 10");
    expectError(firstLines(15), 15, "no MOTION");
    expectError(insertLine(16, "ROOT Other"), 16, "a second ROOT");
    expectError(withLine(16, "MOTION 3"), 16, "unexpected '3' after MOTION");
    expectError(withLine(16, "MOTIONS"), 16, "expected MOTION");
    expectError(insertLine(13, "\t\t\tCHANNELS 1 Xrotation"), 13, "CHANNELS in an End Site");
    expectError(insertLine(13, "\t\t\tJOINT Finger"), 13, "JOINT inside the End Site");
    expectError(insertLine(12, "\t\tEnd Site"), 12, "End Site inside the End Site");
    expectError(withLine(10, "\t\tEnd Point"), 10, "expected 'End Site'");
    expectError(insertLine(10, "\t\tROOT Again"), 10, "ROOT inside joint 'Chest'");
}

TEST(BvhFile, JointErrorsNameTheLine)
{
    expectError(withLine(6, "\tJOINT Hips"), 6, "joint name 'Hips' is used twice");
    expectError(withoutLine(8), 13, "joint 'Chest' opened on line 6 has no OFFSET");
    expectError(withoutLine(12), 12, "the End Site of joint 'Chest' opened on line 10 has no OFFSET");
    expectError(withoutLine(9), 13, "joint 'Chest' opened on line 6 has no CHANNELS");
    expectError(insertLine(9, "\t\tOFFSET 1 1 1"), 9, "a second OFFSET");
    expectError(insertLine(10, "\t\tCHANNELS 1 Xrotation"), 10, "a second CHANNELS");
    // CHANNELS come before the first child: a joint's columns precede its children's.
    expectError(withoutLine(5), 5, "has a child joint before its CHANNELS");
    expectError(insertLine(15, "\tCHANNELS 1 Xrotation"), 15, "a second CHANNELS");
}

TEST(BvhFile, ChannelAndOffsetErrorsNameTheLine)
{
    expectError(withLine(9, "\t\tCHANNELS 2 Zrotation Xrotation Yrotation"), 9, "CHANNELS 2 lists 3 channel names");
    expectError(withLine(9, "\t\tCHANNELS 3 Zrotation Xrotation"), 9, "CHANNELS 3 lists 2 channel names");
    expectError(withLine(9, "\t\tCHANNELS"), 9, "CHANNELS without a count");
    expectError(withLine(9, "\t\tCHANNELS three Zrotation"), 9, "is not a whole number");
    expectError(withLine(9, "\t\tCHANNELS 7 Zrotation"), 9, "0 to 6 channels");
    expectError(withLine(9, "\t\tCHANNELS -1"), 9, "0 to 6 channels");
    expectError(withLine(9, "\t\tCHANNELS 3 Zrotation Wrotation Yrotation"), 9, "unknown channel 'Wrotation'");
    expectError(withLine(9, "\t\tCHANNELS 3 Zrotation Xrotation Zrotation"), 9, "Zrotation listed twice");
    expectError(withLine(8, "\t\tOFFSET 0 abc 0"), 8, "OFFSET value 2 'abc' is not a number");
    expectError(withLine(8, "\t\tOFFSET 0 10"), 8, "missing OFFSET value 3");
    expectError(withLine(8, "\t\tOFFSET 0 10 0 0"), 8, "unexpected '0' after the three OFFSET values");
    expectError(withLine(8, "\t\tOFFSET 0 nan 0"), 8, "'nan' is not finite");
    expectError(withLine(8, "\t\tOFFSET 0 -inf 0"), 8, "'-inf' is not finite");
    expectError(withLine(8, "\t\tOFFSET 0 1e999 0"), 8, "'1e999' is out of range");
    expectError(withLine(8, "\t\tOFFSET 0 1,5 0"), 8, "'1,5' is not a number");
    // Finite but absurd: 1e308 made the retargeting's bone lengths infinite (issue 21).
    expectError(withLine(8, "\t\tOFFSET 0 1e308 0"), 8, "OFFSET value 2 '1e308' is absurd (more than 1e+09 in size");
    expectError(withLine(8, "\t\tOFFSET -1e308 0 0"), 8, "OFFSET value 1 '-1e308' is absurd");
    expectError(withLine(8, "\t\tOFFSET 0 0 1000000001"), 8, "is absurd");
    EXPECT_NO_THROW(parseBvh(withLine(8, "\t\tOFFSET 0 1e9 0"), "t.bvh")); // the limit itself is fine
    BvhReadOptions wide;
    wide.maxAbsValue = 1e300;
    EXPECT_NO_THROW(parseBvh(withLine(8, "\t\tOFFSET 0 1e299 0"), "t.bvh", wide));
}

TEST(BvhFile, MotionHeaderErrorsNameTheLine)
{
    expectError(firstLines(16), 16, "no 'Frames:' line");
    expectError(withoutLine(17), 17, "expected 'Frames: N'");
    expectError(withLine(17, "Frames:"), 17, "'Frames:' without a number");
    expectError(withLine(17, "Frames: -1"), 17, "Frames -1 is negative");
    expectError(withLine(17, "Frames: 2.5"), 17, "is not a whole number");
    expectError(withLine(17, "Frames: two"), 17, "is not a whole number");
    expectError(withLine(17, "Frames: 10000001"), 17, "Frames 10000001 is absurd");
    expectError(withLine(17, "Frames: 99999999999999999999999"), 17, "is absurd");
    expectError(firstLines(17), 17, "no 'Frame Time:' line");
    expectError(withoutLine(18), 18, "expected 'Frame Time: SECONDS'");
    expectError(withLine(18, "Frame Time:"), 18, "missing Frame Time");
    expectError(withLine(18, "Frame Time: 0"), 18, "is not positive");
    expectError(withLine(18, "Frame Time: -0.01"), 18, "is not positive");
    expectError(withLine(18, "Frame Time: 1e9"), 18, "is absurd");
    expectError(withLine(18, "Frame Time: fast"), 18, "is not a number");
    expectError(withLine(18, "Frame Time: nan"), 18, "is not finite");
    expectError(withLine(18, "Frame Time: 0.1 0.2"), 18, "is not a number");
}

TEST(BvhFile, FrameErrorsNameTheLine)
{
    expectError(withLine(20, "4 5 6 0 0 0 0 0"), 20, "frame 2 has 8 values, expected 9");
    expectError(withLine(20, "4 5 6 0 0 0 0 0 0 0"), 20, "frame 2 has 10 values, expected 9");
    expectError(withLine(19, "1"), 19, "frame 1 has 1 values, expected 9");
    expectError(withLine(20, "4 5 six 0 0 0 0 0 0"), 20, "frame 2, value 3: 'six' is not a number");
    expectError(withLine(20, "4 5 6 0 0 0 0 0 0x1"), 20, "value 9: '0x1' is not a number");
    expectError(withLine(20, "4 5 6 0 nan 0 0 0 0"), 20, "frame 2, value 5: 'nan' is not finite");
    expectError(withLine(20, "4 5 6 0 0 inf 0 0 0"), 20, "'inf' is not finite");
    expectError(withLine(20, "4 5 6 0 0 1e400 0 0 0"), 20, "'1e400' is out of range");
    expectError(withLine(20, "4 5 6 0 0 -1e308 0 0 0"), 20, "frame 2, value 6: '-1e308' is absurd (more than 1e+09");
    expectError(withLine(17, "Frames: 3"), 20, "the file ends after 2 of the 3 frames declared by 'Frames:' on line 17");
    expectError(withLine(17, "Frames: 1000"), 20, "after 2 of the 1000 frames");
    BvhReadOptions strict;
    strict.strictFrameCount = true;
    expectError(withLine(17, "Frames: 1"), 20, "more frame lines than the 1 declared by 'Frames:' on line 17", strict);
    // Extra lines are dropped by default, but still checked.
    const Motion m = parseBvh(withLine(17, "Frames: 1"));
    EXPECT_EQ(m.frameCount(), 1);
    EXPECT_DOUBLE_EQ(m.frames(0, 0), 1.0);
    expectError(withLine(17, "Frames: 1") + "garbage\n", 21, "'garbage' is not a number");
    expectError(withLine(17, "Frames: 0"), 19, "more frame lines", strict);
}

TEST(BvhFile, LimitsGuardDeepNestingAndManyJoints)
{
    // 5000 nested joints: iterative parsing, no recursion to overflow.
    const int n = 5000;
    std::string text = "HIERARCHY\nROOT j0\n{\nOFFSET 0 0 0\nCHANNELS 1 Xrotation\n";
    for (int i = 1; i < n; ++i)
        text += "JOINT j" + std::to_string(i) + "\n{\nOFFSET 0 1 0\nCHANNELS 1 Xrotation\n";
    for (int i = 0; i < n; ++i)
        text += "}\n";
    text += "MOTION\nFrames: 1\nFrame Time: 0.01\n";
    for (int i = 0; i < n; ++i)
        text += "0 ";
    text += "\n";
    // With the default depth limit of 1000 the 1001st joint (line 2 + 4·1000) is refused.
    expectError(text, 2 + 4 * 1000, "nested deeper than 1000 levels");
    BvhReadOptions deep;
    deep.maxDepth = n;
    const Motion m = parseBvh(text, "t.bvh", deep);
    EXPECT_EQ(m.jointCount(), n);
    EXPECT_EQ(m.parents.back(), n - 2);
    EXPECT_NEAR(worldPositions(m, 0)(n - 1, 1), n - 1.0, 1e-9);
    deep.maxJoints = 100;
    expectError(text, 2 + 4 * 100, "more than 100 joints", deep);
}

TEST(BvhFile, FileErrors)
{
    EXPECT_THROW(readBvh("/nonexistent/clip.bvh"), IoError);
    EXPECT_THROW(readBvh(std::filesystem::temp_directory_path().string()), IoError);
    const auto path = tempPath("limit.bvh");
    {
        std::ofstream(path) << kBase;
    }
    BvhReadOptions small;
    small.maxFileBytes = 100;
    try {
        readBvh(path.string(), small);
        ADD_FAILURE() << "no error";
    } catch (const IoError& e) {
        EXPECT_NE(std::string(e.what()).find("more than the limit of 100"), std::string::npos) << e.what();
    }
    EXPECT_EQ(readBvh(path.string()).frameCount(), 2);
    std::filesystem::remove(path);
}

TEST(BvhFile, CancellationStopsReading)
{
    std::atomic<bool> cancel{true};
    Progress progress;
    progress.cancelFlag = &cancel;
    EXPECT_THROW(parseBvh(kBase, "t.bvh", {}, progress), Cancelled);
    double last = -1.0;
    Progress reporting;
    reporting.report = [&](std::string_view step, double fraction) {
        EXPECT_EQ(step, "read BVH");
        last = fraction;
    };
    parseBvh(kBase, "t.bvh", {}, reporting);
    EXPECT_DOUBLE_EQ(last, 1.0);
}

// ---------------------------------------------------------------- the whole format

TEST(BvhFile, TabsCrlfBomAndLayoutVariantsReadTheSame)
{
    const Motion expected = parseBvh(kBase);
    // CRLF line ends, tabs between values.
    std::string crlf = replaceAll(std::string(kBase), "\n", "\r\n");
    crlf = replaceAll(crlf, "30 40", "30\t\t40");
    expectSameMotion(expected, parseBvh(crlf));
    // UTF-8 BOM, blank lines, trailing blanks, no final newline.
    std::string loose = "\xEF\xBB\xBF" + std::string(kBase);
    loose = replaceAll(loose, "MOTION\n", "MOTION  \n\n");
    loose = replaceAll(loose, "Frames: 2", "Frames:2 ");
    loose = replaceAll(loose, "Frame Time: ", "Frame Time:\t");
    loose.pop_back();
    expectSameMotion(expected, parseBvh(loose));
    // Braces on the joint's line, lower-case keywords and channel names.
    std::string compact = replaceAll(std::string(kBase), "JOINT Chest\n\t{", "joint Chest {");
    compact = replaceAll(compact, "End Site\n\t\t{", "end site {");
    compact = replaceAll(compact, "Zrotation Xrotation Yrotation", "ZROTATION xrotation Yrotation");
    compact = replaceAll(compact, "HIERARCHY", "hierarchy");
    expectSameMotion(expected, parseBvh(compact));
    // Leading '+', exponents, no digits before the point.
    const Motion signs = parseBvh(withLine(20, "+4 5e0 .6e1 0 -0 0.0 0 0 0"));
    EXPECT_DOUBLE_EQ(signs.frames(1, 0), 4.0);
    EXPECT_DOUBLE_EQ(signs.frames(1, 1), 5.0);
    EXPECT_DOUBLE_EQ(signs.frames(1, 2), 6.0);
}

TEST(BvhFile, JointNamesMayHoldSpaces)
{
    const Motion m = parseBvh(withLine(6, "\tJOINT  Left   Arm  "));
    EXPECT_EQ(m.names[1], "Left Arm");
    EXPECT_EQ(parseBvh(formatBvh(m)).names[1], "Left Arm");
}

TEST(BvhFile, ZeroFramesAndZeroChannelsAreValid)
{
    const Motion none = parseBvh(firstLines(16) + "Frames: 0\nFrame Time: 0.01\n");
    EXPECT_EQ(none.frameCount(), 0);
    EXPECT_EQ(none.frames.cols(), 9);
    const std::string still = "HIERARCHY\nROOT a\n{\nOFFSET 1 2 3\nCHANNELS 0\n}\nMOTION\nFrames: 3\nFrame Time: 1\n";
    const Motion s = parseBvh(still);
    EXPECT_EQ(s.frameCount(), 3);
    EXPECT_EQ(s.channelCount(), 0);
    expectSameMotion(s, parseBvh(formatBvh(s)));
    expectError(still + "1 2\n", 10, "no channels");
}

TEST(BvhFile, SixChannelsOnEveryJointAndAnyOrder)
{
    const std::string text = "HIERARCHY\n"
                             "ROOT root\n{\n\tOFFSET 1 2 3\n"
                             "\tCHANNELS 6 Zrotation Xposition Xrotation Yposition Yrotation Zposition\n"
                             "\tJOINT arm\n\t{\n\t\tOFFSET 2 0 0\n"
                             "\t\tCHANNELS 6 Yrotation Zposition Xrotation Yposition Xposition Zrotation\n"
                             "\t\tEnd Site\n\t\t{\n\t\t\tOFFSET 1 0 0\n\t\t}\n\t}\n}\n"
                             "MOTION\nFrames: 1\nFrame Time: 0.04\n"
                             "0 10 0 20 0 30   0 0.5 0 0.25 0.125 90\n";
    const Motion m = parseBvh(text);
    ASSERT_EQ(m.channelCount(), 12);
    const std::vector<Channel> armChannels(m.jointChannels(1).begin(), m.jointChannels(1).end());
    EXPECT_EQ(armChannels, (std::vector<Channel>{Channel::Yrotation, Channel::Zposition, Channel::Xrotation,
                                                 Channel::Yposition, Channel::Xposition, Channel::Zrotation}));
    const MotionPose pose = evaluateFrame(m, 0);
    EXPECT_TRUE(pose.translations.row(0).isApprox(Eigen::RowVector3d(10, 20, 30)));
    EXPECT_TRUE(pose.translations.row(1).isApprox(Eigen::RowVector3d(0.125, 0.25, 0.5)));
    const MotionWorld w = worldTransforms(m, pose);
    // Root: offset + translation; arm: root + (2, 0, 0) + t; the arm's own
    // 90 degrees about Z turns its End Site from +X to +Y.
    EXPECT_TRUE(w.positions.row(0).isApprox(Eigen::RowVector3d(11, 22, 33)));
    EXPECT_TRUE(w.positions.row(1).isApprox(Eigen::RowVector3d(13.125, 22.25, 33.5)));
    EXPECT_LT((w.endSitePositions.row(0) - Eigen::RowVector3d(13.125, 23.25, 33.5)).norm(), 1e-12);
}

TEST(BvhFile, ChannelOrderMatters)
{
    // The same three angles listed in two orders give two different rotations,
    // each R = R(ch1)·R(ch2)·R(ch3).
    const auto file = [](const std::string& order, const std::string& values) {
        return "HIERARCHY\nROOT r\n{\n\tOFFSET 0 0 0\n\tCHANNELS 3 " + order +
               "\n\tEnd Site\n\t{\n\t\tOFFSET 0 1 0\n\t}\n}\nMOTION\nFrames: 1\nFrame Time: 0.01\n" + values + "\n";
    };
    const double x = 30, y = 45, z = 60; // degrees
    const Motion zxy = parseBvh(file("Zrotation Xrotation Yrotation", "60 30 45"));
    const Motion xyz = parseBvh(file("Xrotation Yrotation Zrotation", "30 45 60"));
    const auto R = [](double deg, int axis) {
        return Eigen::Quaterniond(Eigen::AngleAxisd(deg * std::numbers::pi / 180.0, Vec3::Unit(axis)));
    };
    const Eigen::Quaterniond expectZxy = R(z, 2) * R(x, 0) * R(y, 1);
    const Eigen::Quaterniond expectXyz = R(x, 0) * R(y, 1) * R(z, 2);
    const Eigen::Quaterniond qZxy = evaluateFrame(zxy, 0).localRotations[0];
    const Eigen::Quaterniond qXyz = evaluateFrame(xyz, 0).localRotations[0];
    EXPECT_LT(qZxy.angularDistance(expectZxy), 1e-12);
    EXPECT_LT(qXyz.angularDistance(expectXyz), 1e-12);
    EXPECT_GT(qZxy.angularDistance(qXyz), 0.1);
    const Vec3 tipZxy = worldTransforms(zxy, evaluateFrame(zxy, 0)).endSitePositions.row(0).transpose();
    const Vec3 tipXyz = worldTransforms(xyz, evaluateFrame(xyz, 0)).endSitePositions.row(0).transpose();
    EXPECT_LT((tipZxy - expectZxy * Vec3::UnitY()).norm(), 1e-12);
    EXPECT_LT((tipXyz - expectXyz * Vec3::UnitY()).norm(), 1e-12);
    EXPECT_GT((tipZxy - tipXyz).norm(), 0.1);
}

// ---------------------------------------------------------------- writing

/// A random clip: random tree, 0-6 channels per joint in random order, some End Sites.
Motion randomMotion(std::mt19937& rng, int joints, int frames)
{
    std::uniform_real_distribution<double> value(-180.0, 180.0);
    Motion m;
    std::vector<Channel> all = {Channel::Xposition, Channel::Yposition, Channel::Zposition,
                                Channel::Xrotation, Channel::Yrotation, Channel::Zrotation};
    m.offsets.resize(joints, 3);
    m.channelStarts.push_back(0);
    for (int j = 0; j < joints; ++j) {
        m.names.push_back("joint_" + std::to_string(j));
        // A preorder tree: the parent is any joint on the path to the previous one.
        int parent = -1;
        if (j > 0) {
            std::vector<int> path;
            for (int a = j - 1; a >= 0; a = m.parents[static_cast<size_t>(a)])
                path.push_back(a);
            parent = path[std::uniform_int_distribution<size_t>(0, path.size() - 1)(rng)];
        }
        m.parents.push_back(parent);
        for (int k = 0; k < 3; ++k)
            m.offsets(j, k) = value(rng) / 7.0;
        std::shuffle(all.begin(), all.end(), rng);
        const int count = std::uniform_int_distribution<int>(0, 6)(rng);
        m.channels.insert(m.channels.end(), all.begin(), all.begin() + count);
        m.channelStarts.push_back(static_cast<int>(m.channels.size()));
    }
    for (int j = 0; j < joints; ++j)
        if (std::uniform_int_distribution<int>(0, 2)(rng) == 0)
            m.endSiteParents.push_back(j);
    m.endSiteOffsets = MatrixX3d::Random(m.endSiteCount(), 3);
    m.frameTime = 1.0 / 90.0;
    m.frames.resize(frames, m.channelCount());
    for (Eigen::Index i = 0; i < m.frames.size(); ++i)
        m.frames.data()[i] = value(rng);
    return m;
}

TEST(BvhFile, WriteThenReadReproducesTheClip)
{
    std::mt19937 rng(7);
    for (int trial = 0; trial < 20; ++trial) {
        const Motion m = randomMotion(rng, 1 + trial * 3, trial % 5);
        const Motion back = parseBvh(formatBvh(m));
        ASSERT_EQ(back.jointCount(), m.jointCount());
        EXPECT_EQ(back.names, m.names);
        EXPECT_EQ(back.parents, m.parents);
        EXPECT_EQ(back.channels, m.channels);
        EXPECT_EQ(back.channelStarts, m.channelStarts);
        EXPECT_EQ(back.frameTime, m.frameTime);
        EXPECT_EQ(back.offsets, m.offsets);
        EXPECT_EQ(back.frames, m.frames); // shortest round-trip digits: exact
        // End Sites: the same ones per joint (the file lists them after each
        // joint's children, so their order may change).
        std::vector<std::pair<int, std::array<double, 3>>> a, b;
        for (int e = 0; e < m.endSiteCount(); ++e)
            a.push_back({m.endSiteParents[static_cast<size_t>(e)],
                         {m.endSiteOffsets(e, 0), m.endSiteOffsets(e, 1), m.endSiteOffsets(e, 2)}});
        for (int e = 0; e < back.endSiteCount(); ++e)
            b.push_back({back.endSiteParents[static_cast<size_t>(e)],
                         {back.endSiteOffsets(e, 0), back.endSiteOffsets(e, 1), back.endSiteOffsets(e, 2)}});
        std::sort(a.begin(), a.end());
        std::sort(b.begin(), b.end());
        EXPECT_EQ(a, b);
        // And once more: formatting is a fixed point.
        EXPECT_EQ(formatBvh(back), formatBvh(parseBvh(formatBvh(back))));
    }
}

TEST(BvhFile, WriteBvhToAFileAndBack)
{
    std::mt19937 rng(11);
    const Motion m = randomMotion(rng, 12, 30);
    const auto path = tempPath("roundtrip.bvh");
    writeBvh(m, path.string());
    const Motion back = readBvh(path.string());
    std::filesystem::remove(path);
    EXPECT_LE((back.frames - m.frames).cwiseAbs().maxCoeff(), 1e-6);
    EXPECT_LE((back.offsets - m.offsets).cwiseAbs().maxCoeff(), 1e-6);
    EXPECT_THROW(writeBvh(m, "/nonexistent/dir/x.bvh"), IoError);
}

TEST(BvhFile, WriteBvhReplacesTheFileAtomically)
{
    // An in-place write (open with truncation) changes the file a hard link
    // shares; an atomic write makes a new file and renames it over the old name.
    const std::filesystem::path path = tempPath("atomic.bvh"), link = tempPath("atomic_link.bvh");
    std::filesystem::remove(path);
    std::filesystem::remove(link);
    const Motion first = parseBvh(kBase, "t.bvh");
    writeBvh(first, path.string());
    std::filesystem::create_hard_link(path, link);
    Motion second = first;
    second.frames(0, 0) += 1.0;
    writeBvh(second, path.string());
    expectSameMotion(readBvh(path.string()), second);
    expectSameMotion(readBvh(link.string()), first); // the old file was never written into
    for (const auto& e : std::filesystem::directory_iterator(path.parent_path()))
        EXPECT_EQ(e.path().filename().string().rfind("rigsmith_bvh_test_atomic.bvh.tmp", 0), std::string::npos)
            << "a temporary file was left: " << e.path();
    EXPECT_THROW(writeBvh(second, "/dev/full"), IoError);
    std::filesystem::remove(path);
    std::filesystem::remove(link);
}

TEST(BvhFile, ALongClipIsWrittenInPiecesExactlyAsFormatted)
{
    // Issue 47: the text of 10^6 frames (over 1 GB) was built whole before the
    // write; writeBvh() now formats 4,096 frames at a time. 10,000 frames
    // cross two piece boundaries; the file is formatBvh() byte for byte and
    // reads back with every frame, exactly.
    Motion m = parseBvh(kBase, "t.bvh");
    const Eigen::Index frames = 10'000;
    m.frames.resize(frames, m.channelCount());
    for (Eigen::Index f = 0; f < frames; ++f)
        for (int c = 0; c < m.channelCount(); ++c)
            m.frames(f, c) = std::sin(0.01 * static_cast<double>(f) + c) * (c < 3 ? 50.0 : 170.0);
    const std::filesystem::path path = tempPath("long.bvh");
    writeBvh(m, path.string());
    std::ifstream in(path, std::ios::binary);
    const std::string written((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    EXPECT_TRUE(written == formatBvh(m)) << "the pieces differ from the whole text";
    const Motion back = readBvh(path.string());
    EXPECT_EQ(back.frameCount(), frames);
    expectSameMotion(back, m);
    std::filesystem::remove(path);
}

TEST(BvhFile, WritingAJointOrderThatIsNotDepthFirstKeepsThePose)
{
    // parents[i] < i but not depth-first: 0 -> {1, 2}, 1 -> {3}.
    Motion m;
    m.names = {"root", "a", "b", "a_child"};
    m.parents = {-1, 0, 0, 1};
    m.offsets.resize(4, 3);
    m.offsets << 0, 0, 0, 1, 0, 0, -1, 0, 0, 0, 1, 0;
    m.channels = {Channel::Zrotation, Channel::Zrotation, Channel::Xrotation, Channel::Yrotation};
    m.channelStarts = {0, 1, 2, 3, 4};
    m.frames.resize(1, 4);
    m.frames << 10, 20, 30, 40;
    const Motion back = parseBvh(formatBvh(m));
    EXPECT_EQ(back.names, (std::vector<std::string>{"root", "a", "a_child", "b"}));
    const MatrixX3d before = worldPositions(m, 0), after = worldPositions(back, 0);
    for (int j = 0; j < m.jointCount(); ++j)
        EXPECT_LT((before.row(j) - after.row(*back.find(m.names[static_cast<size_t>(j)]))).norm(), 1e-12);
}

TEST(BvhFile, FormatRejectsInvalidMotions)
{
    Motion m = parseBvh(kBase);
    m.frames(1, 3) = std::nan("");
    EXPECT_THROW(formatBvh(m), InvalidInput);
    m = parseBvh(kBase);
    m.names[1] = "Chest {";
    EXPECT_THROW(formatBvh(m), InvalidInput);
}

// ---------------------------------------------------------------- real files

#ifndef RIGSMITH_ASSIMP_MODELS
#define RIGSMITH_ASSIMP_MODELS "/usr/share/assimp/models"
#endif

std::string assimpBvh(const std::string& name)
{
    return std::string(RIGSMITH_ASSIMP_MODELS) + "/BVH/" + name;
}

/// Loads one of the assimp-testmodels clips or skips the test.
#define LOAD_OR_SKIP(var, name)                                                                                    \
    const std::string var##Path = assimpBvh(name);                                                                 \
    if (!std::filesystem::exists(var##Path))                                                                       \
        GTEST_SKIP() << var##Path << " is missing (Debian package assimp-testmodels)";                            \
    const Motion var = readBvh(var##Path)

void expectCmuLayout(const Motion& m)
{
    const std::vector<std::string> names = {
        "Hips",         "LHipJoint",    "LeftUpLeg",      "LeftLeg",     "LeftFoot",        "LeftToeBase",
        "RHipJoint",    "RightUpLeg",   "RightLeg",       "RightFoot",   "RightToeBase",    "LowerBack",
        "Spine",        "Spine1",       "Neck",           "Neck1",       "Head",            "LeftShoulder",
        "LeftArm",      "LeftForeArm",  "LeftHand",       "LeftFingerBase", "LFingers",     "LThumb",
        "RightShoulder", "RightArm",    "RightForeArm",   "RightHand",   "RightFingerBase", "RFingers",
        "RThumb"};
    EXPECT_EQ(m.names, names);
    EXPECT_EQ(m.jointCount(), 31);
    EXPECT_EQ(m.channelCount(), 6 + 30 * 3);
    EXPECT_NEAR(1.0 / m.frameTime, 120.0, 0.01);
    EXPECT_EQ(m.endSiteCount(), 7);
    const std::vector<Channel> root(m.jointChannels(0).begin(), m.jointChannels(0).end());
    EXPECT_EQ(root, (std::vector<Channel>{Channel::Xposition, Channel::Yposition, Channel::Zposition,
                                          Channel::Zrotation, Channel::Yrotation, Channel::Xrotation}));
    for (int j = 1; j < m.jointCount(); ++j) {
        const std::vector<Channel> c(m.jointChannels(j).begin(), m.jointChannels(j).end());
        EXPECT_EQ(c, (std::vector<Channel>{Channel::Zrotation, Channel::Yrotation, Channel::Xrotation}));
    }
    // Frame 0 is the converter's T-pose: arms straight out, hands at shoulder height.
    const MatrixX3d P = worldPositions(m, 0);
    for (const auto& [arm, hand] : {std::pair{"LeftArm", "LeftHand"}, std::pair{"RightArm", "RightHand"}}) {
        const Vec3 a = P.row(*m.find(arm)).transpose(), h = P.row(*m.find(hand)).transpose();
        const double length = (h - a).norm();
        EXPECT_GT(length, 5.0);
        EXPECT_LT(std::abs(h.y() - a.y()), 0.15 * length) << arm << " " << a.transpose() << " " << hand << " "
                                                          << h.transpose();
    }
    const double span = (P.row(*m.find("LeftHand")) - P.row(*m.find("RightHand"))).norm();
    const double height = P(*m.find("Head"), 1) - P(*m.find("LeftToeBase"), 1);
    EXPECT_GT(span, 0.8 * height);
}

/// kBase's hierarchy with `frames` frames of 17-digit values (162 bytes a
/// line: 30,000 frames cross the reader's 4 MiB pieces).
Motion longBaseClip(int frames)
{
    Motion m = parseBvh(kBase);
    m.frames.resize(frames, m.channelCount());
    for (int f = 0; f < frames; ++f)
        for (int c = 0; c < m.channelCount(); ++c)
            m.frames(f, c) = std::sin(0.001 * f + c) * 123.45678901234567;
    return m;
}

TEST(BvhFile, TheFileReaderGivesTheFramesInBlocksOfAnySize)
{
    // Issue 47: the file is read in 4 MiB pieces and the frames handed out in
    // blocks, never whole; lines cut by a piece's end, CRLF, blank lines and
    // lines past "Frames:" read as parseBvh() reads them.
    const Motion clip = longBaseClip(30'000);
    std::string text = formatBvh(clip);
    ASSERT_GT(text.size(), std::size_t(4) << 20);
    for (const bool crlf : {false, true}) {
        const std::string t = crlf ? replaceAll(text, "\n", "\r\n") + "\r\n  \r\n1 2 3 4 5 6 7 8 9\r\n" : text;
        const auto path = tempPath("blocks_" + std::to_string(::getpid()) + ".bvh");
        std::ofstream(path, std::ios::binary) << t;
        const Motion whole = parseBvh(t, path.string());
        EXPECT_TRUE(whole.frames == clip.frames);
        EXPECT_TRUE(readBvh(path.string()).frames == whole.frames);
        for (const Eigen::Index blockSize : {Eigen::Index(1), Eigen::Index(7), Eigen::Index(4096), Eigen::Index(100'000)}) {
            BvhFrameReader reader(path.string());
            EXPECT_EQ(reader.declaredFrames(), 30'000);
            EXPECT_EQ(reader.hierarchy().names, whole.names);
            EXPECT_EQ(reader.hierarchy().frameCount(), 0);
            MotionFrames all(30'000, whole.channelCount()), block;
            Eigen::Index rows = 0;
            while (const Eigen::Index n = reader.read(block, blockSize)) {
                ASSERT_LE(n, blockSize);
                ASSERT_LE(rows + n, 30'000);
                all.middleRows(rows, n) = block;
                rows += n;
            }
            EXPECT_EQ(rows, 30'000);
            EXPECT_TRUE(all == whole.frames) << "blocks of " << blockSize;
            EXPECT_EQ(reader.read(block, blockSize), 0);
        }
        std::filesystem::remove(path);
    }
}

TEST(BvhFile, TheFileReaderFindsAProblemPastTheFirstPiece)
{
    const Motion clip = longBaseClip(30'000);
    auto ls = lines(formatBvh(clip));
    const int header = 18; // kBase's hierarchy and motion lines
    ls[static_cast<size_t>(header + 29'000)] = "1 2 3 4 5 6 7 8 x9";
    expectError(join(ls), header + 29'001, "frame 29001, value 9: 'x9' is not a number");
    ls.resize(static_cast<size_t>(header + 25'000));
    expectError(join(ls), header + 25'000, "the file ends after 25000 of the 30000 frames");
}

TEST(BvhFile, Cmu01_01Loads)
{
    LOAD_OR_SKIP(m, "01_01.bvh");
    EXPECT_EQ(m.frameCount(), 2752);
    expectCmuLayout(m);
    EXPECT_DOUBLE_EQ(m.frames(0, 0), 9.3722);
    EXPECT_DOUBLE_EQ(m.frames(0, 9), -17.0);
}

TEST(BvhFile, Cmu01_03Loads)
{
    LOAD_OR_SKIP(m, "01_03.bvh");
    EXPECT_EQ(m.frameCount(), 4511);
    expectCmuLayout(m);
}

TEST(BvhFile, BoxingToesLoads)
{
    // Not a CMU clip: 21 joints, Z X Y order, 100 fps, and one frame line more
    // than its header declares (3070 for 3069).
    LOAD_OR_SKIP(m, "Boxing_Toes.bvh");
    EXPECT_EQ(m.jointCount(), 21);
    EXPECT_EQ(m.frameCount(), 3069);
    EXPECT_DOUBLE_EQ(m.frameTime, 0.01);
    EXPECT_EQ(m.jointChannels(1)[0], Channel::Zrotation);
    EXPECT_EQ(m.jointChannels(1)[1], Channel::Xrotation);
    EXPECT_EQ(m.jointChannels(1)[2], Channel::Yrotation);
    BvhReadOptions strict;
    strict.strictFrameCount = true;
    try {
        readBvh(mPath, strict);
        ADD_FAILURE() << "no error";
    } catch (const IoError& e) {
        EXPECT_EQ(std::string(e.what()), mPath + ":3199: more frame lines than the 3069 declared by 'Frames:' on line 128");
    }
}

TEST(BvhFile, CmuClipSurvivesWriteAndRead)
{
    LOAD_OR_SKIP(m, "01_01.bvh");
    const std::string text = formatBvh(m);
    const Motion back = parseBvh(text, "01_01 copy");
    expectSameMotion(m, back);
    EXPECT_EQ(formatBvh(back), text);
}

} // namespace
} // namespace rig
