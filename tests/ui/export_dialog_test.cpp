// File ▸ Export (issue 17): the dialog's folder, its choices, the document's
// export with several clips, a frame range and without root motion; and the
// parts list.
#include "ui/panels/export_dialog.h"

#include "core/export/gltf_export.h"
#include "core/import/mesh_import.h"
#include "ui/document.h"
#include "ui/panels/parts_panel.h"

#include <gtest/gtest.h>

#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QLineEdit>
#include <QStandardPaths>
#include <QTemporaryDir>

#include <filesystem>

namespace rig::ui {
namespace {

const QString walk = QStringLiteral(RIGSMITH_ASSIMP_MODELS "/BVH/01_01.bvh");

TEST(ExportDialog, OpensInTheProjectsFolderElseTheDocumentsNeverAReadOnlySourceFolder)
{
    QTemporaryDir dir;
    const QString project = dir.filePath("hero.rsproj");
    EXPECT_EQ(QDir(ExportDialog::startFolder(project)).canonicalPath(), QDir(dir.path()).canonicalPath());
    // No project: the documents folder, which is writable.
    const QString none = ExportDialog::startFolder(QString());
    EXPECT_TRUE(QFileInfo(none).isDir());
    EXPECT_TRUE(QFileInfo(none).isWritable()) << none.toStdString();
    // A project path in a read-only folder (as a file opened from /usr/share) is not used.
    if (!QFileInfo(QStringLiteral("/usr/share")).isWritable()) {
        const QString readOnly = ExportDialog::startFolder(QStringLiteral("/usr/share/assimp/models/x.rsproj"));
        EXPECT_FALSE(readOnly.startsWith("/usr/share")) << readOnly.toStdString();
    }
}

TEST(ExportDialog, TheFormatSetsTheExtensionAndTheChoicesComeBack)
{
    QTemporaryDir dir;
    ExportDialog d(QStringLiteral("walk"), 40, dir.path(), QStringLiteral("hero"));
    ExportChoice c = d.choice();
    EXPECT_EQ(QFileInfo(c.path).fileName(), QStringLiteral("hero.glb"));
    EXPECT_TRUE(c.includeClip);
    EXPECT_EQ(c.lastFrame, -1);
    EXPECT_FALSE(c.metres);
    EXPECT_TRUE(c.rootMotion);
    d.findChild<QComboBox*>("exportFormat")->setCurrentIndex(1);
    d.findChild<QCheckBox*>("exportRootMotion")->setChecked(false);
    c = d.choice();
    EXPECT_EQ(QFileInfo(c.path).fileName(), QStringLiteral("hero.gltf"));
    EXPECT_FALSE(c.rootMotion);
    // Without a loaded clip, the clip cannot be chosen.
    ExportDialog noClip(QString(), 0, dir.path(), QStringLiteral("hero"));
    EXPECT_FALSE(noClip.choice().includeClip);
}

TEST(ExportDialog, TheDocumentWritesSeveralClipsAsSeparateAnimationsWithTheFrameRange)
{
    if (!QFile::exists(walk))
        GTEST_SKIP() << "assimp-testmodels not installed (scripts/deps.sh)";
    Document doc;
    doc.openCharacter("default");
    doc.waitForIdle();
    ASSERT_TRUE(doc.project().skinning());
    QTemporaryDir dir;
    const QString path = dir.filePath("two_clips.glb");
    Document::GltfExportRequest request;
    request.includeClip = false; // none loaded anyway
    request.extraClips = {walk, walk};
    request.firstFrame = 10;
    request.lastFrame = 19;
    request.rootMotion = false;
    doc.exportGltf(path, request);
    doc.waitForIdle();
    ASSERT_TRUE(QFile::exists(path));
    const auto anims = readAnimationInfo(path.toStdString());
    ASSERT_EQ(anims.size(), 2u);
    for (const auto& a : anims) {
        EXPECT_EQ(a.maxKeys, 10); // frames 10..19
        EXPECT_EQ(a.channels, doc.project().rig()->skeleton.jointCount()); // rotations only: no root motion
    }
}

// Issue 45: the joints named for the artist's engine, chosen in the dialog,
// remembered for the next export, and written by the document.
TEST(ExportDialog, JointNamesForAnEngineAreChosenRememberedAndWritten)
{
    QTemporaryDir dir;
    {
        ExportDialog d(QString(), 0, dir.path(), QStringLiteral("hero"));
        EXPECT_EQ(d.choice().boneNames, QStringLiteral("rigsmith"));
        auto* names = d.findChild<QComboBox*>("exportBoneNames");
        ASSERT_NE(names, nullptr);
        EXPECT_EQ(names->count(), 5);
        names->setCurrentIndex(names->findData(QStringLiteral("unreal")));
        EXPECT_EQ(d.choice().boneNames, QStringLiteral("unreal"));
        auto* buttons = d.findChild<QDialogButtonBox*>();
        ASSERT_NE(buttons, nullptr);
        emit buttons->accepted(); // the Export button
    }
    ExportDialog again(QString(), 0, dir.path(), QStringLiteral("hero"));
    EXPECT_EQ(again.choice().boneNames, QStringLiteral("unreal"));

    Document doc;
    doc.openCharacter("default");
    doc.waitForIdle();
    ASSERT_TRUE(doc.project().skinning());
    const QString path = dir.filePath("named.gltf");
    Document::GltfExportRequest request;
    request.boneNames = "vrm";
    doc.exportGltf(path, request);
    doc.waitForIdle();
    QFile file(path);
    ASSERT_TRUE(file.open(QIODevice::ReadOnly));
    const QByteArray json = file.readAll();
    for (const char* name : {"\"hips\"", "\"leftUpperArm\"", "\"rightToes\""})
        EXPECT_TRUE(json.contains(name)) << name;
    EXPECT_FALSE(json.contains("\"LeftForeArm\""));
}

TEST(PartsPanel, ListsTheFilesMeshesByName)
{
    const QString spider = QStringLiteral(RIGSMITH_ASSIMP_MODELS "/OBJ/spider.obj");
    if (!QFile::exists(spider))
        GTEST_SKIP() << "assimp-testmodels not installed (scripts/deps.sh)";
    Document doc;
    PartsPanel panel(&doc);
    EXPECT_EQ(panel.partCount(), 0);
    doc.openCharacter(spider);
    doc.waitForIdle();
    ASSERT_TRUE(doc.project().character());
    EXPECT_EQ(panel.partCount(), static_cast<int>(doc.project().character()->imported.source.meshes.size()));
    EXPECT_GE(panel.partCount(), 4);
}

} // namespace
} // namespace rig::ui
