#pragma once
/// @file open_and_fit.h
/// UI tests: open a character in a main window and wait until the pipeline
/// has fitted a rig (or gave up after 50 idle waits).

#include "ui/document.h"
#include "ui/main_window.h"

#include <QCoreApplication>
#include <QString>

namespace rig::test {

inline void openAndFit(ui::MainWindow& w, const QString& spec)
{
    w.openFile(spec);
    for (int i = 0; i < 50 && !w.document()->project().rig(); ++i) {
        w.document()->waitForIdle();
        QCoreApplication::processEvents();
    }
}

} // namespace rig::test
