// The stages after the rig, through the document as the GUI drives them:
// weights (issue 5), clips (issue 7), projects and export (issue 8).
#include "ui/document.h"

#include "core/character/humanoid.h"
#include "core/deform/lbs.h"
#include "core/import/mesh_import.h"
#include "core/skin/skin_weights.h"
#include "core/skin/weights_gaussian.h"

#include <gtest/gtest.h>

#include <QFile>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTextStream>

#include <filesystem>

namespace rig::ui {
namespace {

const QString walk = QStringLiteral(RIGSMITH_ASSIMP_MODELS "/BVH/01_01.bvh");

/// A document with the default character loaded, rigged and weighted.
struct Rigged {
    Document doc;
    Rigged()
    {
        doc.openCharacter("default");
        doc.waitForIdle();
    }
};

MatrixX3d posedVertices(const Document& doc)
{
    const RigProject& p = doc.project();
    const PosedSkeleton posed = forwardKinematics(p.rig()->skeleton, doc.pose());
    return lbs(p.character()->imported.mesh.V, MatrixX3d(), p.skinning()->weights, posed.skinning).V;
}

/// The extent of the character along each axis.
Vec3 extent(const Document& doc)
{
    const MatrixX3d& V = doc.project().character()->imported.mesh.V;
    return (V.colwise().maxCoeff() - V.colwise().minCoeff()).transpose();
}

TEST(DocumentStages, TheUpAxisReloadsTheCharacterInItsFrameAndIsUndoable)
{
    Rigged r;
    Document& doc = r.doc;
    ASSERT_TRUE(doc.project().rig());
    const MatrixX3d standing = doc.project().character()->imported.mesh.V;
    ASSERT_GT(extent(doc).y(), 2.0 * extent(doc).z()) << "the default character stands along +Y";
    const int steps = doc.undoStack()->count();

    doc.setUpAxis("+z"); // says the file's +Z points up: the character is tipped onto its back
    doc.waitForIdle();
    EXPECT_EQ(doc.project().orientation().up, "+z");
    EXPECT_GT(extent(doc).z(), 2.0 * extent(doc).y()) << "not re-loaded in the new frame";
    EXPECT_EQ(doc.undoStack()->count(), steps + 1);
    EXPECT_EQ(doc.undoStack()->undoText(), "Up +z");

    doc.undoStack()->undo();
    doc.waitForIdle();
    EXPECT_EQ(doc.project().orientation().up, "file");
    EXPECT_EQ(doc.project().character()->imported.mesh.V, standing) << "undo did not bring the standing character back";
    EXPECT_TRUE(doc.project().rig()) << "undo did not bring the rig back";

    doc.undoStack()->redo();
    doc.waitForIdle();
    EXPECT_EQ(doc.project().orientation().up, "+z");
    EXPECT_GT(extent(doc).z(), 2.0 * extent(doc).y());

    QSignalSpy failed(&doc, &Document::stageFailed);
    doc.setUpAxis("sideways");
    ASSERT_EQ(failed.count(), 1);
    EXPECT_TRUE(failed.first().at(1).toString().contains("sideways"));
    EXPECT_EQ(doc.project().orientation().up, "+z") << "a refused value changed nothing";
}

/// The default character turned to face +X, written as an OBJ file.
QString characterFacingX(const QTemporaryDir& dir)
{
    const Humanoid h = generateHumanoid({.pose = HumanoidPose::A, .height = 1.75, .cellSize = 0.04});
    const QString path = dir.filePath("facing_x.obj");
    QFile f(path);
    EXPECT_TRUE(f.open(QIODevice::WriteOnly | QIODevice::Text));
    QTextStream out(&f);
    for (Eigen::Index v = 0; v < h.mesh.V.rows(); ++v) // (x, y, z) turned 90° about +Y: +Z goes to +X
        out << "v " << h.mesh.V(v, 2) << ' ' << h.mesh.V(v, 1) << ' ' << -h.mesh.V(v, 0) << '\n';
    for (Eigen::Index t = 0; t < h.mesh.F.rows(); ++t)
        out << "f " << h.mesh.F(t, 0) + 1 << ' ' << h.mesh.F(t, 1) + 1 << ' ' << h.mesh.F(t, 2) + 1 << '\n';
    return path;
}

// The Rig dock's facing "Auto" (issue 14 item 2): a character facing +X is
// detected and turned to face +Z, loaded again and rigged; undo brings the
// file's heading back, and an explicit facing after "auto" loads it unturned.
// (Up +Y given first: an OBJ does not say which way is up, so under the
// default "file" its shape already turns it to face +Z, as the first lines check.)
TEST(DocumentStages, FacingAutoTurnsTheCharacterToFacePlusZAndIsUndoable)
{
    QTemporaryDir dir;
    Document doc;
    doc.openCharacter(characterFacingX(dir));
    doc.waitForIdle();
    ASSERT_TRUE(doc.project().rig());
    EXPECT_EQ(doc.project().orientation().up, "file");
    EXPECT_EQ(doc.project().orientationResult().detectedFront, "+x");
    EXPECT_GT(extent(doc).x(), 2.0 * extent(doc).z()) << "an OBJ facing +X not turned by its shape";
    doc.setUpAxis("+y");
    doc.waitForIdle();
    ASSERT_TRUE(doc.project().rig());
    ASSERT_NE(doc.project().orientation().facing, "auto");
    ASSERT_GT(extent(doc).z(), 2.0 * extent(doc).x()) << "the arms span along Z as written";
    const int steps = doc.undoStack()->count();

    doc.setFacing("auto");
    doc.waitForIdle();
    EXPECT_EQ(doc.project().orientation().facing, "auto");
    EXPECT_TRUE(doc.project().orientationResult().turned);
    EXPECT_EQ(doc.project().orientationResult().detectedFront, "+x");
    EXPECT_TRUE(doc.project().front().isApprox(Vec3::UnitZ()));
    EXPECT_GT(extent(doc).x(), 2.0 * extent(doc).z()) << "not turned to face +Z";
    ASSERT_TRUE(doc.project().rig()) << "not rigged after the turn";
    EXPECT_EQ(doc.undoStack()->count(), steps + 1);
    EXPECT_EQ(doc.undoStack()->undoText(), "Facing Auto");

    doc.undoStack()->undo();
    doc.waitForIdle();
    EXPECT_NE(doc.project().orientation().facing, "auto");
    EXPECT_GT(extent(doc).z(), 2.0 * extent(doc).x()) << "undo did not bring the file's heading back";

    doc.undoStack()->redo();
    doc.waitForIdle();
    doc.setFacing("+x"); // out of auto: loaded again as written, facing +X
    doc.waitForIdle();
    EXPECT_EQ(doc.project().orientation().facing, "+x");
    EXPECT_TRUE(doc.project().front().isApprox(Vec3::UnitX()));
    EXPECT_GT(extent(doc).z(), 2.0 * extent(doc).x());
    EXPECT_TRUE(doc.project().rig());
}

TEST(DocumentStages, WeightsFollowTheRigAndAreValid)
{
    Rigged r;
    const RigProject& p = r.doc.project();
    ASSERT_TRUE(p.rig());
    ASSERT_TRUE(p.skinning());
    validateSkinWeights(p.skinning()->weights, p.character()->imported.mesh.vertexCount(), p.rig()->skeleton.jointCount());
    EXPECT_EQ(p.skinning()->segmentation.vertexCount(), p.character()->imported.mesh.vertexCount());
    EXPECT_FALSE(r.doc.isModified());
}

TEST(DocumentStages, ChangingTheMethodRecomputesAndKeepsTheLastGoodWeightsMeanwhile)
{
    Rigged r;
    const auto before = r.doc.project().skinning();
    QSignalSpy changed(&r.doc, &Document::skinningChanged);
    WeightOptions o = r.doc.project().weightOptions();
    o.method = "heat";
    r.doc.setWeightOptions(o);
    EXPECT_EQ(r.doc.project().skinning(), before); // still shown while the worker runs
    EXPECT_TRUE(r.doc.isModified());
    r.doc.waitForIdle();
    ASSERT_GE(changed.count(), 1);
    ASSERT_TRUE(r.doc.project().skinning());
    EXPECT_NE(r.doc.project().skinning(), before);
    EXPECT_EQ(r.doc.project().weightOptions().method, "heat");
}

TEST(DocumentStages, AMovedJointRecomputesTheWeights)
{
    Rigged r;
    const auto before = r.doc.project().skinning();
    const Skeleton& s = r.doc.project().rig()->skeleton;
    const int elbow = *s.find("LeftForeArm");
    ASSERT_TRUE(r.doc.moveJoint(elbow, Vec3(s.bindPositions.row(elbow)) + Vec3(0.0, 0.02, 0.0)));
    r.doc.waitForIdle();
    ASSERT_TRUE(r.doc.project().skinning());
    EXPECT_NE(r.doc.project().skinning(), before);
}

TEST(DocumentStages, AClipPlaysOnTheRigAndTheMeshMoves)
{
    if (!QFile::exists(walk))
        GTEST_SKIP() << "assimp-testmodels is not installed";
    Rigged r;
    QSignalSpy clipChanged(&r.doc, &Document::clipChanged);
    r.doc.loadClip(walk);
    r.doc.waitForIdle();
    ASSERT_EQ(clipChanged.count(), 1);
    const auto& clip = r.doc.project().clip();
    ASSERT_TRUE(clip);
    EXPECT_GT(clip->retargeted.frames.size(), 100u);
    // The timeline moves time forward: the pose and the deformed mesh change.
    r.doc.setClipTime(0.5);
    const MatrixX3d a = posedVertices(r.doc);
    r.doc.setClipTime(1.5);
    const MatrixX3d b = posedVertices(r.doc);
    ASSERT_TRUE(a.allFinite());
    ASSERT_TRUE(b.allFinite());
    const double height = r.doc.project().character()->stats.bounds.size().y();
    EXPECT_GT((a - b).rowwise().norm().maxCoeff(), 0.05 * height);
    // Playback is not an edit: nothing to undo.
    EXPECT_EQ(r.doc.undoStack()->count(), 0);
}

TEST(DocumentStages, CorrectingTheClipMappingRetargetsAndIsUndoable)
{
    if (!QFile::exists(walk))
        GTEST_SKIP() << "assimp-testmodels is not installed";
    Rigged r;
    r.doc.loadClip(walk);
    r.doc.waitForIdle();
    const auto before = r.doc.project().clip();
    ASSERT_TRUE(before);
    const int forearm = *r.doc.project().rig()->skeleton.find("LeftForeArm");
    r.doc.setClipTime(1.0);
    const Eigen::Quaterniond mapped = r.doc.pose().localRotations[size_t(forearm)];
    // Unmap the left forearm: it keeps its rest pose (identity) in every frame.
    ASSERT_TRUE(r.doc.setClipMapping("LeftForeArm", ""));
    ASSERT_NE(r.doc.project().clip(), before);
    EXPECT_EQ(r.doc.project().clip()->retargeted.mapping.joints[size_t(forearm)].match, RetargetMatch::User);
    r.doc.setClipTime(1.0);
    EXPECT_TRUE(r.doc.pose().localRotations[size_t(forearm)].isApprox(Eigen::Quaterniond::Identity(), 1e-9));
    EXPECT_GT(mapped.angularDistance(Eigen::Quaterniond::Identity()), 1e-3);
    // An unknown joint is refused with a message; undo restores the automatic mapping.
    QSignalSpy failed(&r.doc, &Document::stageFailed);
    EXPECT_FALSE(r.doc.setClipMapping("LeftForeArm", "NoSuchJoint"));
    EXPECT_EQ(failed.count(), 1);
    r.doc.undoStack()->undo();
    EXPECT_EQ(r.doc.project().clip(), before);
    // The edit survives a joint move (the clip is retargeted with it).
    r.doc.undoStack()->redo();
    const Skeleton& s = r.doc.project().rig()->skeleton;
    const int knee = *s.find("LeftLeg");
    ASSERT_TRUE(r.doc.moveJoint(knee, Vec3(s.bindPositions.row(knee)) + Vec3(0.0, 0.0, 0.01)));
    r.doc.waitForIdle();
    ASSERT_TRUE(r.doc.project().clip());
    EXPECT_EQ(r.doc.project().clip()->retargeted.mapping.joints[size_t(forearm)].match, RetargetMatch::User);
}

TEST(DocumentStages, AMalformedClipIsRefusedNamingTheFileAndTheLastClipStays)
{
    Rigged r;
    QTemporaryDir dir;
    const QString bad = dir.filePath("broken.bvh");
    QFile f(bad);
    ASSERT_TRUE(f.open(QIODevice::WriteOnly));
    f.write("HIERARCHY\nROOT Hips\n{\n  OFFSET 0 0 0\n  CHANNELS 3 Xrotation Yrotation Zrotation\n}\nMOTION\n"
            "Frames: 2\nFrame Time: 0.1\n0 0 0\n0 0\n");
    f.close();
    QSignalSpy failed(&r.doc, &Document::stageFailed);
    r.doc.loadClip(bad);
    r.doc.waitForIdle();
    ASSERT_EQ(failed.count(), 1);
    EXPECT_EQ(failed.at(0).at(0).toString(), "clip");
    EXPECT_TRUE(failed.at(0).at(1).toString().contains("broken.bvh")) << failed.at(0).at(1).toString().toStdString();
    EXPECT_FALSE(r.doc.project().clip());
}

TEST(DocumentStages, ProjectRoundTripRestoresLabelsJointsWeightOptionsAndClip)
{
    if (!QFile::exists(walk))
        GTEST_SKIP() << "assimp-testmodels is not installed";
    Rigged r;
    QTemporaryDir dir;
    // Edit: move a joint, change the weight parameters, load a clip.
    const Skeleton& s = r.doc.project().rig()->skeleton;
    const int knee = *s.find("LeftLeg");
    ASSERT_TRUE(r.doc.moveJoint(knee, Vec3(s.bindPositions.row(knee)) + Vec3(0.0, 0.0, 0.01)));
    WeightOptions o = r.doc.project().weightOptions();
    o.parameters["gaussian"]["c"] = 0.3;
    o.parameters["gaussian"]["hierarchyLevel"] = 2;
    r.doc.setWeightOptions(o);
    r.doc.waitForIdle();
    r.doc.loadClip(walk);
    r.doc.waitForIdle();
    ASSERT_TRUE(r.doc.isModified());
    const QString path = dir.filePath("session.rsproj");
    ASSERT_TRUE(r.doc.saveProject(path, ProjectCamera{Vec3(0.1, 0.9, 0.0), 0.5, 0.25, 3.0}));
    EXPECT_FALSE(r.doc.isModified());
    EXPECT_EQ(r.doc.projectPath(), path);

    Document reopened;
    QSignalSpy opened(&reopened, &Document::projectOpened);
    reopened.openProject(path);
    reopened.waitForIdle();
    ASSERT_EQ(opened.count(), 1);
    const RigProject& a = r.doc.project();
    const RigProject& b = reopened.project();
    ASSERT_TRUE(b.rig());
    EXPECT_EQ(b.labels(), a.labels());
    EXPECT_EQ(b.rig()->skeleton.names, a.rig()->skeleton.names);
    EXPECT_TRUE(b.rig()->skeleton.bindPositions.isApprox(a.rig()->skeleton.bindPositions, 1e-9));
    EXPECT_EQ(methodOptions<GaussianWeightOptions>(b.weightOptions(), "gaussian").hierarchyLevel, 2);
    EXPECT_DOUBLE_EQ(methodOptions<GaussianWeightOptions>(b.weightOptions(), "gaussian").c, 0.3);
    EXPECT_EQ(b.curveSkeletonOptions().voxelize.resolution, a.curveSkeletonOptions().voxelize.resolution);
    ASSERT_TRUE(b.clip());
    EXPECT_EQ(b.clip()->path, a.clip()->path);
    ASSERT_TRUE(b.skinning());
    const auto camera = opened.at(0).at(1).value<std::optional<ProjectCamera>>();
    ASSERT_TRUE(camera);
    EXPECT_DOUBLE_EQ(camera->yaw, 0.5);
    EXPECT_FALSE(reopened.isModified());
}

TEST(DocumentStages, ABrokenProjectIsRefusedAndNotOverwritten)
{
    QTemporaryDir dir;
    const QString path = dir.filePath("truncated.rsproj");
    QFile f(path);
    ASSERT_TRUE(f.open(QIODevice::WriteOnly));
    const QByteArray truncated = "{\"format\": \"rigsmith-project\", \"version\": 1, \"mesh\": {\"pa";
    f.write(truncated);
    f.close();
    Document doc;
    QSignalSpy failed(&doc, &Document::stageFailed);
    doc.openProject(path);
    doc.waitForIdle();
    ASSERT_EQ(failed.count(), 1);
    EXPECT_TRUE(failed.at(0).at(1).toString().contains("truncated.rsproj")) << failed.at(0).at(1).toString().toStdString();
    ASSERT_TRUE(f.open(QIODevice::ReadOnly));
    EXPECT_EQ(f.readAll(), truncated);
}

TEST(DocumentStages, ExportWritesAGlbThatAssimpReadsBackWithItsSkeleton)
{
    Rigged r;
    QTemporaryDir dir;
    const QString path = dir.filePath("character.glb");
    QSignalSpy finished(&r.doc, &Document::stageFinished);
    r.doc.exportGltf(path);
    r.doc.waitForIdle();
    ASSERT_TRUE(QFile::exists(path));
    const ImportedCharacter back = importCharacter(path.toStdString());
    ASSERT_TRUE(back.skeleton);
    EXPECT_EQ(int(back.skeleton->names.size()), r.doc.project().rig()->skeleton.jointCount());
    EXPECT_EQ(back.mesh.vertexCount(), r.doc.project().character()->imported.mesh.vertexCount());
}

TEST(DocumentStages, ExportToAnUnwritableFolderFailsWithAMessage)
{
    Rigged r;
    QSignalSpy failed(&r.doc, &Document::stageFailed);
    r.doc.exportGltf("/proc/rigsmith-cannot-write-here/character.glb");
    r.doc.waitForIdle();
    ASSERT_EQ(failed.count(), 1);
    EXPECT_EQ(failed.at(0).at(0).toString(), "export");
    EXPECT_TRUE(failed.at(0).at(1).toString().contains("character.glb"));
}

} // namespace
} // namespace rig::ui
