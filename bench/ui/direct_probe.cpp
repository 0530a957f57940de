#include "core/character/humanoid.h"
#include "ui/viewport/renderer.h"
#include <QGuiApplication>
#include <QOffscreenSurface>
#include <QOpenGLContext>
#include <QOpenGLFramebufferObject>
#include <QOpenGLFunctions>
#include <QElapsedTimer>
#include <cmath>
#include <cstdio>
#include <vector>
#include <algorithm>
int main(int argc, char** argv) {
  QGuiApplication app(argc, argv);
  QSurfaceFormat f; f.setVersion(3,3); f.setProfile(QSurfaceFormat::CoreProfile); f.setDepthBufferSize(24);
  QOpenGLContext ctx; ctx.setFormat(f); ctx.create(); QOffscreenSurface s; s.setFormat(ctx.format()); s.create(); ctx.makeCurrent(&s);
  rig::HumanoidOptions o; o.cellSize = 1.75/100.0*std::sqrt(44500.0/ (argc>1? std::atoi(argv[1]) : 200000));
  auto h = rig::generateHumanoid(o);
  QOpenGLFramebufferObjectFormat ff; ff.setAttachment(QOpenGLFramebufferObject::Depth);
  QOpenGLFramebufferObject fbo(QSize(1280,720), ff); fbo.bind();
  rig::ui::Renderer r; QString e; r.initialize(&e); auto d = rig::ui::makeMeshDrawData(h.mesh); r.setMesh(d);
  rig::ui::OrbitCamera cam; cam.frame(d.boundsMin, d.boundsMax, 1280.f/720.f);
  std::vector<double> ms; QElapsedTimer t;
  for (int i=0;i<40;++i){ t.start(); cam.orbit(3.5f,0); r.render(cam,1280,720,{}); ctx.functions()->glFinish(); ms.push_back(t.nsecsElapsed()*1e-6);}
  std::sort(ms.begin(), ms.end()); std::printf("%d tris direct median %.2f ms\n", h.mesh.triangleCount(), ms[ms.size()/2]);
}
