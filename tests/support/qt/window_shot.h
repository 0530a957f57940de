#pragma once
/// @file window_shot.h
/// With RIGSMITH_SHOTS=DIR set, GL tests save the window (widgets and the
/// viewport's framebuffer) at steps of a GUI flow as DIR/NAME.png, so a person
/// can look at what the test did. Never used for an assertion.

#include "ui/main_window.h"
#include "ui/viewport/viewport.h"

#include <QCoreApplication>
#include <QImage>
#include <QPainter>

#include <cstdlib>

namespace rig::test {

inline void saveWindowShot(ui::MainWindow& w, const char* name)
{
    const char* dir = std::getenv("RIGSMITH_SHOTS");
    if (dir == nullptr)
        return;
    QCoreApplication::processEvents();
    QImage shot = w.grab().toImage();
    QPainter painter(&shot);
    painter.drawImage(w.viewport()->mapTo(&w, QPoint(0, 0)), w.viewport()->grabFramebuffer());
    painter.end();
    shot.save(QString("%1/%2.png").arg(dir, name));
}

} // namespace rig::test
