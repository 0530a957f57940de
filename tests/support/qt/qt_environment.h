#pragma once
/// @file qt_environment.h
/// A GoogleTest environment that creates the QApplication when the tests run
/// (not in main), so test discovery at build time needs no display. Settings
/// go to a throw-away location.

#include <gtest/gtest.h>

#include <QApplication>
#include <QSettings>
#include <QStandardPaths>

#include <memory>

namespace rig::test {

class QtEnvironment : public ::testing::Environment {
public:
    QtEnvironment(int argc, char** argv) : m_argc(argc), m_argv(argv) {}
    void SetUp() override
    {
        QStandardPaths::setTestModeEnabled(true);
        m_app = std::make_unique<QApplication>(m_argc, m_argv);
        QApplication::setOrganizationName("RigsmithTests");
        QApplication::setApplicationName("RigsmithTests");
        QSettings().clear();
    }
    void TearDown() override
    {
        QSettings().clear();
        m_app.reset();
    }

private:
    int m_argc;
    char** m_argv;
    std::unique_ptr<QApplication> m_app;
};

} // namespace rig::test
