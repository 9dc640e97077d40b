/* A stack of three 0.5 m boxes on ODE's ground plane, simulated and drawn
 * through odexSpaceDraw with the drawstuff adapter (drawstuff/ode_draw.h):
 * the program knows nothing of the geoms when it draws. Seen from 4 m
 * along +x at 0.75 m (the stack's middle), looking back along -x. */
#include <drawstuff/ode_draw.h>
#include <stdio.h>

static dWorldID world;
static dSpaceID space;
static dJointGroupID contacts;
static dBodyID boxes[3];
static int frames, drawn;

static void near_cb(void *data, dGeomID a, dGeomID b)
{
  dContact c[4];
  int i, n;
  (void)data;
  n = dCollide(a, b, 4, &c[0].geom, sizeof(dContact));
  for (i = 0; i < n; i++) {
    c[i].surface.mode = dContactApprox1 | dContactSoftCFM;
    c[i].surface.soft_cfm = 1e-4;
    c[i].surface.mu = 1;
    dJointAttach(dJointCreateContact(world, contacts, &c[i]), dGeomGetBody(a), dGeomGetBody(b));
  }
}

static void start(void)
{
  float xyz[3] = {4.0f, 0.0f, 0.75f}, hpr[3] = {180.0f, 0.0f, 0.0f};
  dsSetViewpoint(xyz, hpr);
}

static void step(int pause)
{
  int k;
  if (!pause)
    for (k = 0; k < 5; k++) {
      dSpaceCollide(space, 0, near_cb);
      dWorldQuickStep(world, 0.01);
      dJointGroupEmpty(contacts);
    }
  frames++;
  dsSetColor(1, 0, 0);
  drawn = dsodeDrawSpace(space);
}

static void stop(void)
{
  const dReal *top = dBodyGetPosition(boxes[2]);
  printf("frames=%d drawn=%d top=%.4f %.4f %.4f\n", frames, drawn, top[0], top[1], top[2]);
}

int main(int argc, char **argv)
{
  dsFunctions fn = {DS_VERSION, start, step, 0, stop, 0};
  dMass m;
  int i;
  dInitODE2(0);
  world = dWorldCreate();
  dWorldSetGravity(world, 0, 0, -9.81);
  space = dHashSpaceCreate(0);
  contacts = dJointGroupCreate(0);
  dCreatePlane(space, 0, 0, 1, 0);
  dMassSetBox(&m, 1, 0.5, 0.5, 0.5);
  for (i = 0; i < 3; i++) {
    dGeomID g = dCreateBox(space, 0.5, 0.5, 0.5);
    boxes[i] = dBodyCreate(world);
    dBodySetMass(boxes[i], &m);
    dBodySetPosition(boxes[i], 0, 0, 0.25 + 0.5 * i);
    dGeomSetBody(g, boxes[i]);
  }
  dsSimulationLoop(argc, argv, 320, 240, &fn);
  dJointGroupDestroy(contacts);
  dSpaceDestroy(space);
  dWorldDestroy(world);
  dCloseODE();
  return 0;
}
