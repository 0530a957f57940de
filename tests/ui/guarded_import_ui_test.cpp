// A reader that crashes on a file costs a message, not the session (issue 21):
// the import runs in the importer process, and the window keeps its character,
// its project and its unsaved edits.
#include "ui/main_window.h"

#include "core/project/rig_project.h"
#include "ui/document.h"

#include <gtest/gtest.h>

#include <QCoreApplication>
#include <QFile>
#include <QMessageBox>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

namespace rig::ui {
namespace {

using Kind = MainWindow::ViewportKind;

void settle(MainWindow& w)
{
    for (int round = 0; round < 50; ++round) {
        w.document()->waitForIdle();
        QCoreApplication::processEvents();
        QTest::qWait(20);
        if (!w.document()->busy())
            return;
    }
}

/// Sets an environment variable for the scope.
class ScopedEnv {
public:
    ScopedEnv(const char* name, const QByteArray& value) : m_name(name), m_old(qgetenv(name)), m_had(qEnvironmentVariableIsSet(name))
    {
        qputenv(name, value);
    }
    ~ScopedEnv()
    {
        if (m_had)
            qputenv(m_name, m_old);
        else
            qunsetenv(m_name);
    }

private:
    const char* m_name;
    QByteArray m_old;
    bool m_had;
};

TEST(GuardedImportUi, ACrashingReaderLeavesTheOpenProjectAsItWas)
{
    QTemporaryDir dir;
    // The importer crashes as Assimp 5.2.5's PLY reader does on some files
    // (a stand-in that crashes on every file: the test does not depend on
    // Assimp keeping its bugs).
    const QString crasher = dir.filePath("crashing-importer.sh");
    {
        QFile f(crasher);
        ASSERT_TRUE(f.open(QIODevice::WriteOnly));
        f.write("#!/bin/sh\nkill -SEGV $$\n");
        f.close();
        f.setPermissions(QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);
    }
    const QString broken = dir.filePath("broken.ply");
    {
        QFile f(broken);
        ASSERT_TRUE(f.open(QIODevice::WriteOnly));
        f.write("ply\nformat binary_little_endian 1.0\nelement vertex 3\n");
    }

    MainWindow w(Kind::Placeholder);
    w.openFile("default");
    settle(w);
    Document* doc = w.document();
    ASSERT_TRUE(doc->project().hasCharacter());
    ASSERT_TRUE(doc->project().rig());
    const QString project = dir.filePath("hero.rsproj");
    ASSERT_TRUE(w.saveProjectTo(project));
    WeightOptions o = doc->project().weightOptions();
    o.parameters["gaussian"]["a"] = 1.8; // an unsaved edit (the default is 1.3)
    doc->setWeightOptions(o);
    settle(w);
    ASSERT_TRUE(doc->isModified());
    const auto characterBefore = doc->project().character();
    const auto rigBefore = doc->project().rig();

    QSignalSpy failed(doc, &Document::stageFailed);
    {
        ScopedEnv importer("RIGSMITH_IMPORTER", crasher.toUtf8());
        ScopedEnv isolate("RIGSMITH_IMPORT_IN_PROCESS", "0");
        w.openFile(broken);
        settle(w);
    }
    ASSERT_EQ(failed.count(), 1);
    EXPECT_EQ(failed.first().at(0).toString(), "load");
    const QString message = failed.first().at(1).toString();
    EXPECT_TRUE(message.contains(broken)) << message.toStdString();
    EXPECT_TRUE(message.contains("the PLY reader crashed on this file")) << message.toStdString();
    // Everything as it was: the character, the rig, the project, the unsaved edit.
    EXPECT_EQ(doc->project().character(), characterBefore);
    EXPECT_EQ(doc->project().rig(), rigBefore);
    EXPECT_EQ(doc->projectPath(), project);
    EXPECT_TRUE(doc->isModified());
    EXPECT_DOUBLE_EQ(doc->project().weightOptions().valuesOf("gaussian").at("a"), 1.8);
    auto* box = w.findChild<QMessageBox*>("errorBox");
    ASSERT_NE(box, nullptr);
    EXPECT_TRUE(box->text().contains("crashed")) << box->text().toStdString();
}

} // namespace
} // namespace rig::ui
