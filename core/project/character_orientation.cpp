#include "core/project/character_orientation.h"

#include "core/common/error.h"
#include "core/mesh/orientation.h"

#include <cmath>
#include <cstdio>
#include <numbers>
#include <optional>

namespace rig {
namespace {

/// The rotation import applied for its up axis ("+Z" -> +Y; see upFix() in
/// core/import/mesh_import.cpp): 90 degrees about the axis up × Y, 180 about X for -Y.
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

/// The front of the mesh stood up on `up` (a signed axis of the imported
/// frame: turned by `rotationTakingToY(up)`, then read along +Y), in that
/// stood-up frame. (Reading it along `up` on the mesh as it is breaks ties
/// between the two horizontal axes the other way on boxes and blobs.)
FrontGuess frontStoodUp(const Mesh& mesh, const Vec3& up)
{
    Mesh upright;
    upright.V = mesh.V * rotationTakingToY(up).transpose();
    upright.F = mesh.F;
    return detectFront(upright, Vec3::UnitY());
}

/// Up and front from the shape, for a file that does not say which way is up.
struct ShapeFrame {
    UpGuess up;
    FrontGuess front; // on the mesh stood up by `up`
};

/// The shape's frame where it stands on two feet, up detected with at least
/// `kTwoFeetOverImportGuess`, else none: import's guess stands (a box, a
/// sphere, a quadruped, a test model of blocks: man.mdl's up scores 0.95 the
/// wrong way). A flat mesh (thinner than 2 % of its longest side: a sheet,
/// one triangle) has no body. `unsure` receives the guess not taken, for the
/// warning.
std::optional<ShapeFrame> shapeFrame(const Mesh& mesh, std::optional<UpGuess>& unsure)
{
    const Vec3 extent = mesh.V.colwise().maxCoeff() - mesh.V.colwise().minCoeff();
    if (!(extent.minCoeff() >= 0.02 * extent.maxCoeff()))
        return std::nullopt;
    ShapeFrame f{detectUp(mesh), {}};
    if (f.up.confidence >= kTwoFeetOverImportGuess)
        f.front = frontStoodUp(mesh, f.up.up);
    if (f.front.twoFeet && f.up.confidence >= kTwoFeetOverImportGuess)
        return f;
    unsure = f.up;
    return std::nullopt;
}

} // namespace

std::string OrientationResult::summary() const
{
    std::string s = "up " + fileUp + " of the file (" + upSource;
    if (upSource == "detected")
        s += ", confidence " + pct(upConfidence);
    else if (upSource == "import guess" && !upReason.empty()) // the shape was asked and did not decide
        s += "; the shape's answer not taken, confidence " + pct(upConfidence);
    s += "), facing ";
    if (facingSource == "detected")
        s += detectedFront + " (detected, confidence " + pct(frontConfidence) + ")" + (turned ? ", turned to +z" : "");
    else if (!detectedFront.empty() && detectedFront != "+z") // a file that does not say, turned by its shape
        s += signedAxisName(front) + " (given) after turning its front " + detectedFront + " to +z (detected, confidence " +
             pct(frontConfidence) + ")";
    else
        s += signedAxisName(front) + " (given)";
    if (!warning.empty())
        s += "; warning: " + warning;
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
    std::optional<ShapeFrame> shape; // "file" on a file that does not say: its shape, where it is sure
    std::optional<UpGuess> unsure;   // the shape's answer that was not sure enough
    if (o.up == "file" && c.imported.info.upAxisGuessed && o.shapeWhereFileIsSilent)
        shape = shapeFrame(c.imported.mesh, unsure);
    if (shape) {
        up = shape->up.up;
        r.upSource = "detected";
        r.upConfidence = shape->up.confidence;
        r.upReason = "the file does not say; " + shape->up.reason;
        if (shape->up.confidence < kSureUp) // acted on, but not sure: the spiders of assimp-testmodels at 0.57
            r.warning = "the file does not say which way is up; stood up by its shape as " +
                        signedAxisName(F.transpose() * up) + " of the file with confidence " +
                        pct(shape->up.confidence) + " only (under " + pct(kSureUp) +
                        "): check it, or name the file's up axis with --up";
    } else if (o.up == "file") {
        r.upSource = c.imported.info.upAxisGuessed ? "import guess" : "file metadata";
        if (unsure) {
            r.upConfidence = unsure->confidence;
            r.upReason = "the file does not say; " + unsure->reason;
            r.warning = "the file does not say which way is up and the shape " +
                        std::string(unsure->confidence < kTwoFeetOverImportGuess ? "is not sure (" : "stands on no two feet (") +
                        signedAxisName(F.transpose() * unsure->up) + " at confidence " + pct(unsure->confidence) +
                        "): kept import's guess " +
                        signedAxisName(F.transpose() * Vec3::UnitY()) +
                        "; --up auto takes the shape's answer, --up +z (or another axis) names it";
        }
    } else if (o.up == "auto") {
        const UpGuess g = detectUp(c.imported.mesh);
        up = g.up;
        r.upSource = "detected";
        r.upConfidence = g.confidence;
        r.upReason = g.reason;
        if (g.confidence < kSureUp)
            r.warning = "up detected as " + signedAxisName(F.transpose() * g.up) + " of the file with confidence " +
                        pct(g.confidence) + " only (under " + pct(kSureUp) +
                        "): check it, or name the file's up axis with --up";
    } else {
        up = F * *parseSignedAxis(o.up);
        r.upSource = "given";
    }
    Eigen::Matrix3d R = rotationTakingToY(up);
    r.fileUp = signedAxisName(F.transpose() * up);
    std::optional<FrontGuess> front;
    if (o.facing == "auto")
        front = shape ? shape->front : frontStoodUp(c.imported.mesh, up);
    else if (shape && shape->front.twoFeet && shape->front.confidence >= kFrontOverImportGuess) // turned to +Z; the given facing applies after
        front = shape->front;
    if (front) {
        r.detectedFront = signedAxisName(front->front);
        r.frontConfidence = front->confidence;
        r.frontReason = front->reason;
        R = frameRotation(Vec3::UnitY(), front->front) * R;
    }
    if (o.facing == "auto") {
        r.facingSource = "detected";
        r.front = Vec3::UnitZ();
    } else {
        r.facingSource = "given";
        r.front = *parseSignedAxis(o.facing);
    }
    if (!R.isIdentity(1e-12)) {
        rotateCharacter(c, R);
        r.turned = true;
        r.rotation = R;
    }
    return r;
}

} // namespace rig
