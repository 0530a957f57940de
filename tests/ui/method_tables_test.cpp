// A weight method and a deformer registered by the test through the tables
// (tests/support/test_methods.h) reach the Weights panel, the joint panel, the
// toolbar, the CLI's help, --method, the project file and `bench skinning`,
// with no code of their own in any of them (issue 13).
#include "app/cli.h"
#include "core/export/project_file.h"
#include "tests/support/test_methods.h"
#include "ui/document.h"
#include "ui/main_window.h"
#include "ui/panels/weight_panel.h"

#include <gtest/gtest.h>

#include <QAction>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QTemporaryDir>

#include <fstream>
#include <iterator>

namespace rig::ui {
namespace {

int cli(std::vector<std::string> args)
{
    std::vector<char*> argv{const_cast<char*>("rigsmith")};
    for (std::string& a : args)
        argv.push_back(a.data());
    return app::runCli(int(argv.size()), argv.data(), args);
}

std::string readText(const QString& path)
{
    std::ifstream in(path.toStdString());
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

TEST(MethodTables, ATestOnlyWeightMethodIsSelectableInTheWeightsPanel)
{
    test::registerTestMethods();
    Document doc;
    WeightPanel panel(&doc);
    auto* method = panel.findChild<QComboBox*>("weightMethod");
    ASSERT_TRUE(method);
    const int row = method->findData(QString(test::testMethodId));
    ASSERT_GE(row, 0) << "the panel lists the table";
    method->setCurrentIndex(row);
    EXPECT_EQ(doc.project().weightOptions().method, test::testMethodId);
    // Its parameter, built from the row's description; an edit reaches the options.
    auto* reach = panel.findChild<QDoubleSpinBox*>(QString("param_%1_reach").arg(test::testMethodId));
    ASSERT_TRUE(reach);
    EXPECT_DOUBLE_EQ(reach->value(), 0.5);
    reach->setValue(1.5);
    emit reach->editingFinished();
    EXPECT_DOUBLE_EQ(doc.project().weightOptions().valuesOf(test::testMethodId).at("reach"), 1.5);
    // Back to a built-in method: its own fields, the test method's value kept.
    method->setCurrentIndex(method->findData("heat"));
    EXPECT_TRUE(panel.findChild<QDoubleSpinBox*>("param_heat_heatConstant"));
    EXPECT_DOUBLE_EQ(doc.project().weightOptions().valuesOf(test::testMethodId).at("reach"), 1.5);
}

TEST(MethodTables, ATestOnlyDeformerIsInTheToolbarAndTheJointPanel)
{
    test::registerTestMethods();
    MainWindow w(MainWindow::ViewportKind::Placeholder);
    QAction* action = nullptr;
    for (int key = 1; key <= int(deformers().size()); ++key)
        if (auto* a = w.findChild<QAction*>(QString("actionDeformer%1").arg(key)); a && a->text() == "TestRigid")
            action = a;
    ASSERT_TRUE(action) << "one toolbar button per row of the deformer table";
    action->trigger();
    EXPECT_EQ(w.document()->deformer(), test::testDeformerId);
    auto* combo = w.findChild<QComboBox*>("deformerCombo");
    ASSERT_TRUE(combo);
    EXPECT_EQ(combo->currentData().toString(), QString(test::testDeformerId));
    w.document()->setDeformer("no-such-deformer"); // refused, the choice stays
    EXPECT_EQ(w.document()->deformer(), test::testDeformerId);
}

TEST(MethodTables, ATestOnlyMethodReachesTheCommandLineAndTheProjectFile)
{
    test::registerTestMethods();
    const std::string help = app::usage();
    EXPECT_NE(help.find(std::string("--method gaussian|heat|")), std::string::npos) << help;
    EXPECT_NE(help.find(std::string("|") + test::testMethodId + "|file]"), std::string::npos) << help;
    EXPECT_NE(help.find("Rigid nearest bone (test only)"), std::string::npos);
    EXPECT_NE(help.find("Rigid (test only)"), std::string::npos);

    QTemporaryDir dir;
    const QString weights = dir.filePath("w.json"), glb = dir.filePath("c.glb"), project = dir.filePath("p.rsproj");
    ASSERT_EQ(cli({"weights", "default", "--method", test::testMethodId, "--out", weights.toStdString()}), 0);
    EXPECT_NE(readText(weights).find(test::testMethodId), std::string::npos);
    ASSERT_EQ(cli({"rig", "default", "--weights", test::testMethodId, "--out", glb.toStdString(), "--project",
                   project.toStdString()}),
              0);
    EXPECT_EQ(readProjectFile(project.toStdString()).weights.method, test::testMethodId);

    const QString report = dir.filePath("bench.json");
    ASSERT_EQ(cli({"bench", "skinning", "--vertices", "400", "--repetitions", "1", "--report", report.toStdString()}), 0);
    EXPECT_NE(readText(report).find(std::string("\"") + test::testDeformerId + "\""), std::string::npos);
}

} // namespace
} // namespace rig::ui
