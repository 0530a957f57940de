#pragma once
/// @file qt_environment.h
/// A GoogleTest environment that creates the QApplication when the tests run
/// (not in main), so test discovery at build time needs no display. Settings
/// go to a throw-away location.

#include <gtest/gtest.h>

#include <QApplication>
#include <QSettings>
#include <QStandardPaths>
#include <QTemporaryDir>

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
        // ctest runs test processes in parallel: each gets its own settings file.
        m_settingsDir = std::make_unique<QTemporaryDir>();
        QSettings::setDefaultFormat(QSettings::IniFormat);
        QSettings::setPath(QSettings::IniFormat, QSettings::UserScope, m_settingsDir->path());
        QSettings().clear();
        // No modal questions (unsaved changes, recovery) in tests; autosaves
        // go to this process's own folder.
        qputenv("RIGSMITH_NO_PROMPTS", "1");
        qputenv("RIGSMITH_AUTOSAVE_DIR", m_settingsDir->path().toUtf8());
    }
    void TearDown() override
    {
        QSettings().clear();
        m_app.reset();
        m_settingsDir.reset();
    }

private:
    int m_argc;
    char** m_argv;
    std::unique_ptr<QApplication> m_app;
    std::unique_ptr<QTemporaryDir> m_settingsDir;
};

} // namespace rig::test
