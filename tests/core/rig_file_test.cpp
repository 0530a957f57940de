#include "core/export/rig_file.h"

#include "core/common/error.h"
#include "core/rig/fit_template.h"

#include "tests/support/expect_error.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

namespace rig {
namespace {

std::string tempPath(const std::string& name)
{
    return (std::filesystem::temp_directory_path() / ("rigsmith_rig_file_test_" + name)).string();
}

void writeText(const std::string& path, const std::string& text) { std::ofstream(path) << text; }

using test::expectError;

RigFile sampleRig()
{
    RigFile rig;
    Skeleton& k = rig.skeleton;
    k.names = {"Hips", "Spine", "Head", "LeftArm"};
    k.parents = {-1, 0, 1, 1};
    k.bindPositions.resize(4, 3);
    k.bindPositions << 0.01, 0.96, -0.003, 0, 1.2, 0, 0.0, 1.6, 0.1 / 3.0, 0.2, 1.41, 0;
    k.bindOrientations.assign(4, Eigen::Quaterniond::Identity());
    orientBones(k);
    rig.labels = parseEndNodeLabels("head=10,lhand=20,rhand=30,lfoot=40,rfoot=50");
    rig.templateName = "humanoid21";
    return rig;
}

TEST(RigFile, BadFilesGiveErrorsNamingTheFile)
{
    expectError<IoError>([] { readRigFile("/nonexistent/rig.json"); }, "/nonexistent/rig.json: cannot open");
    const std::string path = tempPath("bad.json");
    writeText(path, "{ not json");
    expectError<IoError>([&] { readRigFile(path); }, path + ": not valid JSON");
    writeText(path, R"({"format": "rigsmith-template", "version": 1})");
    expectError<IoError>([&] { readRigFile(path); }, path + ": not a rig file");
    writeText(path, R"({"format": "rigsmith-rig", "version": 2, "joints": []})");
    expectError<IoError>([&] { readRigFile(path); }, "unsupported rig file version");
    writeText(path, R"({"format": "rigsmith-rig", "version": 1, "joints": [
        {"name": "Hips", "parent": -1, "position": [0, 1], "orientation": [1, 0, 0, 0]}]})");
    expectError<IoError>([&] { readRigFile(path); }, "joint 0 'Hips': \"position\" must be an array of 3 numbers");
    writeText(path, R"({"format": "rigsmith-rig", "version": 1, "joints": [
        {"name": "Hips", "parent": -1, "position": [0, 1, 0], "orientation": [1, 0, 0, 0]},
        {"name": "Hips", "parent": 0, "position": [0, 1, 0], "orientation": [1, 0, 0, 0]}]})");
    expectError<IoError>([&] { readRigFile(path); }, path + ": rig::validateSkeleton(): joint name 'Hips' is used twice");
    writeText(path, R"({"format": "rigsmith-rig", "version": 1, "joints": [
        {"name": "Hips", "parent": -1, "position": [0, 1, 0], "orientation": [1, 0, 0, 0]}], "labels": {"head": 1}})");
    expectError<IoError>([&] { readRigFile(path); }, "\"labels\": \"lhand\" must be a node index");
    std::filesystem::remove(path);

    RigFile invalid = sampleRig();
    invalid.skeleton.parents[1] = 2;
    EXPECT_THROW(writeRigFile(invalid, tempPath("invalid.json")), InvalidInput);
    expectError<IoError>([] { writeRigFile(sampleRig(), "/nonexistent/dir/rig.json"); }, "/nonexistent/dir/rig.json");
}

TEST(RigFile, IntegersNulsAndTrailingGarbageAreRefusedNamingTheValue)
{
    const std::string path = tempPath("strict.json");
    const std::string joint = R"({"name": "Hips", "parent": -1, "position": [0, 1, 0], "orientation": [1, 0, 0, 0]})";
    const std::string good = R"({"format": "rigsmith-rig", "version": 1, "joints": [)" + joint + "]}";
    writeText(path, good);
    EXPECT_EQ(readRigFile(path).skeleton.jointCount(), 1);
    writeText(path, R"({"format": "rigsmith-rig", "version": 4294967297, "joints": [)" + joint + "]}");
    expectError<IoError>([&] { readRigFile(path); }, path + ": unsupported rig file version 4294967297");
    writeText(path, R"({"format": "rigsmith-rig", "version": 1, "joints": [)" + joint +
                        R"(, {"name": "Spine", "parent": 4294967296, "position": [0, 2, 0], "orientation": [1, 0, 0, 0]}]})");
    expectError<IoError>([&] { readRigFile(path); },
                         path + ": joint 1 'Spine': \"parent\" (-1 for the root) must be a whole number from -1 to "
                                "2147483647, got 4294967296");
    writeText(path, R"({"format": "rigsmith-rig", "version": 1, "joints": [)" + joint +
                        R"(], "labels": {"head": 4294967297, "lhand": 1, "rhand": 2, "lfoot": 3, "rfoot": 4}})");
    expectError<IoError>([&] { readRigFile(path); }, "\"labels\": \"head\" (a node index) must be a whole number "
                                                     "from 0 to 2147483647, got 4294967297");
    {
        std::ofstream(path, std::ios::binary) << good << std::string("\0{}", 3);
    }
    expectError<IoError>([&] { readRigFile(path); }, path + ": contains a NUL byte at offset " + std::to_string(good.size()));
    writeText(path, good + "]");
    expectError<IoError>([&] { readRigFile(path); }, path + ": not valid JSON");
    std::filesystem::remove(path);
}

TEST(RigFile, AbsurdJointPositionsAreRefusedNamingTheJoint)
{
    // A joint at 1e308 (a corrupt or hostile file) used to be read and
    // exported as is: bone lengths overflow to infinity downstream.
    const std::string path = tempPath("absurd.json");
    for (const std::string x : {"1e308", "-2e9", "1e300"}) {
        writeText(path, R"({"format": "rigsmith-rig", "version": 1, "joints": [
            {"name": "Hips", "parent": -1, "position": [0, 1, 0], "orientation": [1, 0, 0, 0]},
            {"name": "Spine", "parent": 0, "position": [)" + x + R"(, 1.2, 0], "orientation": [1, 0, 0, 0]}]})");
        expectError<IoError>([&] { readRigFile(path); }, path + ": rig::validateSkeleton(): joint 'Spine' lies at (");
        expectError<IoError>([&] { readRigFile(path); }, "beyond ±1e9 units from the origin");
    }
    writeText(path, R"({"format": "rigsmith-rig", "version": 1, "joints": [
        {"name": "Hips", "parent": -1, "position": [0, 1, 0], "orientation": [1, 0, 0, 0]},
        {"name": "Spine", "parent": 0, "position": [9e8, 1.2, 0], "orientation": [1, 0, 0, 0]}]})");
    EXPECT_EQ(readRigFile(path).skeleton.jointCount(), 2) << "a large but possible coordinate is read";
    std::filesystem::remove(path);
}

TEST(RigFile, RoundTripsExactlyAndAtomically)
{
    const RigFile rig = sampleRig();
    const std::string path = tempPath("rig.json");
    writeText(path, "old contents");
    writeRigFile(rig, path);
    const std::string tmp = std::filesystem::path(path).filename().string() + ".tmp";
    for (const auto& e : std::filesystem::directory_iterator(std::filesystem::path(path).parent_path()))
        EXPECT_NE(e.path().filename().string().rfind(tmp, 0), 0u) << "a temporary file was left: " << e.path();
    const RigFile back = readRigFile(path);
    EXPECT_EQ(back.skeleton.names, rig.skeleton.names);
    EXPECT_EQ(back.skeleton.parents, rig.skeleton.parents);
    EXPECT_EQ(back.skeleton.bindPositions, rig.skeleton.bindPositions); // bit-exact
    for (int j = 0; j < rig.skeleton.jointCount(); ++j)
        EXPECT_EQ(back.skeleton.bindOrientations[static_cast<size_t>(j)].coeffs(),
                  rig.skeleton.bindOrientations[static_cast<size_t>(j)].coeffs());
    ASSERT_TRUE(back.labels.has_value());
    EXPECT_EQ(*back.labels, *rig.labels);
    EXPECT_EQ(back.templateName, "humanoid21");

    // Without labels.
    RigFile bare = rig;
    bare.labels.reset();
    bare.templateName.clear();
    writeRigFile(bare, path);
    const RigFile bareBack = readRigFile(path);
    EXPECT_FALSE(bareBack.labels.has_value());
    EXPECT_EQ(bareBack.templateName, "");
    std::filesystem::remove(path);
}

} // namespace
} // namespace rig
