#include "core/project/character_orientation.h"

#include "core/common/error.h"
#include "core/mesh/orientation.h"

#include <cmath>
#include <cstdio>
#include <numbers>

namespace rig {
namespace {

/// The rotation import applied for its up axis ("+Z" -> +Y; see upFix() in
/// core/io/mesh_import.cpp): 90 degrees about the axis up × Y, 180 about X for -Y.
Eigen::Matrix3d rotationTakingToY(const Vec3& up)
{
    if ((up - Vec3::UnitY()).norm() < 1e-9)
        return Eigen::Matrix3d::Identity();
    if ((up + Vec3::UnitY()).norm() < 1e-9)
        return Vec3(1, -1, -1).asDiagonal();
    const Vec3 k = up.cross(Vec3::UnitY()).normalized();
    Eigen::Matrix3d R = Eigen::AngleAxisd(std::numbers::pi / 2, k).toRotationMatrix();
    return R.array().round().matrix(); // exact: a signed permutation
}

std::string pct(double v)
{
    char buf[16];
    std::snprintf(buf, sizeof buf, "%.2f", v);
    return buf;
}

void rotateCharacter(LoadedCharacter& c, const Eigen::Matrix3d& R)
{
    Mesh& m = c.imported.mesh;
    m.V = m.V * R.transpose();
    if (m.N.rows() > 0)
        m.N = m.N * R.transpose();
    Eigen::Matrix4d R4 = Eigen::Matrix4d::Identity();
    R4.block<3, 3>(0, 0) = R;
    if (c.imported.skeleton) {
        for (Eigen::Matrix4d& b : c.imported.skeleton->bindGlobal)
            b = R4 * b;
        for (ImportedAnimation& a : c.imported.skeleton->animations)
            for (auto& frame : a.global)
                for (Eigen::Matrix4d& g : frame)
                    g = R4 * g;
    }
    // The file's own meshes turn with the welded one: the export writes them
    // with the rig, whose joints are in the turned frame.
    for (SourceMesh& s : c.imported.source.meshes) {
        s.V = s.V * R.transpose();
        if (s.N.rows() > 0)
            s.N = s.N * R.transpose();
        if (s.tangents.rows() > 0)
            s.tangents.leftCols<3>() = s.tangents.leftCols<3>() * R.transpose();
    }
    if (c.groundTruth) {
        c.groundTruth->mesh.V = c.groundTruth->mesh.V * R.transpose();
        c.groundTruth->joints = c.groundTruth->joints * R.transpose();
        c.groundTruth->endEffectors = c.groundTruth->endEffectors * R.transpose();
    }
    c.stats = meshStats(m);
}

} // namespace

std::string OrientationResult::summary() const
{
    std::string s = "up " + fileUp + " of the file (" + upSource;
    if (upSource == "detected")
        s += ", confidence " + pct(upConfidence);
    s += "), facing ";
    if (facingSource == "detected")
        s += detectedFront + " (detected, confidence " + pct(frontConfidence) + ")" + (turned ? ", turned to +z" : "");
    else
        s += signedAxisName(front) + " (given)";
    return s;
}

void validateOrientationOptions(const OrientationOptions& o)
{
    if (o.up != "file" && o.up != "auto" && !parseSignedAxis(o.up))
        throw InvalidInput("--up '" + o.up + "' not understood; use auto, file, +y, -y, +z, -z, +x or -x");
    if (o.facing != "auto") {
        const auto f = parseSignedAxis(o.facing);
        if (!f || std::abs((*f).y()) > 0.5)
            throw InvalidInput("--facing '" + o.facing + "' not understood; use auto, +z, -z, +x or -x");
    }
}

OrientationResult orientCharacter(LoadedCharacter& c, const OrientationOptions& o)
{
    validateOrientationOptions(o);
    OrientationResult r;
    // Import's rotation F (file -> imported frame), from the up axis it used.
    const auto importUp = parseSignedAxis(c.imported.info.upAxis.empty() ? "+y" : c.imported.info.upAxis);
    const Eigen::Matrix3d F = rotationTakingToY(importUp.value_or(Vec3::UnitY()));
    Vec3 up = Vec3::UnitY(); // in the imported frame
    if (o.up == "file") {
        r.upSource = c.imported.info.upAxisGuessed ? "import guess" : "file metadata";
    } else if (o.up == "auto") {
        const UpGuess g = detectUp(c.imported.mesh);
        up = g.up;
        r.upSource = "detected";
        r.upConfidence = g.confidence;
        r.upReason = g.reason;
    } else {
        up = F * *parseSignedAxis(o.up);
        r.upSource = "given";
    }
    Eigen::Matrix3d R = rotationTakingToY(up);
    r.fileUp = signedAxisName(F.transpose() * up);
    if (o.facing == "auto") {
        const Mesh upright = [&] {
            Mesh m;
            m.V = c.imported.mesh.V * R.transpose();
            m.F = c.imported.mesh.F;
            return m;
        }();
        const FrontGuess g = detectFront(upright, Vec3::UnitY());
        r.facingSource = "detected";
        r.detectedFront = signedAxisName(g.front);
        r.frontConfidence = g.confidence;
        r.frontReason = g.reason;
        R = frameRotation(Vec3::UnitY(), g.front) * R;
        r.front = Vec3::UnitZ();
    } else {
        r.facingSource = "given";
        r.front = *parseSignedAxis(o.facing);
    }
    if (!R.isIdentity(1e-12)) {
        rotateCharacter(c, R);
        r.turned = true;
    }
    return r;
}

} // namespace rig
