#include "core/export/weights_file.h"

#include "core/common/error.h"

#include "tests/support/expect_error.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

namespace rig {
namespace {

std::string tempPath(const std::string& name)
{
    return (std::filesystem::temp_directory_path() / ("rigsmith_weights_file_test_" + name)).string();
}

void writeBytes(const std::string& path, const std::string& bytes) { std::ofstream(path, std::ios::binary) << bytes; }

using test::expectError;

Skeleton twoJoints()
{
    Skeleton k;
    k.names = {"Hips", "Spine"};
    k.parents = {-1, 0};
    k.bindPositions.resize(2, 3);
    k.bindPositions << 0, 1, 0, 0, 1.5, 0;
    k.bindOrientations.assign(2, Eigen::Quaterniond::Identity());
    return k;
}

std::string weightsText(const std::string& version, const std::string& vertex0Joints)
{
    return R"({"format": "rigsmith-weights", "version": )" + version +
           R"(, "joints": [{"name": "Spine", "parent": -1, "position": [0, 1.5, 0]},
                           {"name": "Hips", "parent": -1, "position": [0, 1, 0]}],
              "vertex_count": 2,
              "vertices": [{"joints": )" + vertex0Joints + R"(, "weights": [0.25, 0.75]},
                           {"joints": [1], "weights": [1]}]})";
}

TEST(WeightsFile, ReadsJointsByNameAndRefusesWrappedIntegers)
{
    const std::string path = tempPath("w.json");
    writeBytes(path, weightsText("1", "[0, 1]"));
    const auto W = readWeightsFile(path, twoJoints(), 2);
    EXPECT_DOUBLE_EQ(W.coeff(0, 1), 0.25); // file joint 0 is "Spine", skeleton joint 1
    EXPECT_DOUBLE_EQ(W.coeff(0, 0), 0.75);
    EXPECT_DOUBLE_EQ(W.coeff(1, 0), 1.0);
    // 4294967296 read as 0 through get<int>() before: vertex 0 silently weighted to "Spine".
    writeBytes(path, weightsText("1", "[4294967296, 1]"));
    expectError<IoError>([&] { readWeightsFile(path, twoJoints(), 2); },
                         path + ": vertex 0: joint 0 (an index into \"joints\") must be a whole number from 0 to 1, got "
                                "4294967296");
    writeBytes(path, weightsText("1", "[0.5, 1]"));
    expectError<IoError>([&] { readWeightsFile(path, twoJoints(), 2); }, "got 0.5");
    writeBytes(path, weightsText("4294967297", "[0, 1]"));
    expectError<IoError>([&] { readWeightsFile(path, twoJoints(), 2); },
                         path + ": \"version\" (this build reads version 1) must be a whole number from 1 to 1, got "
                                "4294967297");
    const std::string good = weightsText("1", "[0, 1]");
    writeBytes(path, good + std::string("\0{\"x\": 1}", 9));
    expectError<IoError>([&] { readWeightsFile(path, twoJoints(), 2); },
                         path + ": contains a NUL byte at offset " + std::to_string(good.size()));
    writeBytes(path, good + "\n{}\n");
    expectError<IoError>([&] { readWeightsFile(path, twoJoints(), 2); }, path + ": not valid JSON");
    expectError<IoError>([&] { readWeightsFile(tempPath("missing.json"), twoJoints(), 2); }, "cannot open");
    std::filesystem::remove(path);
}

} // namespace
} // namespace rig
