/* Heightfield against trimesh through dCollide: heightfields built from
 * callback, byte, short, single and double data (finite and wrapped, with
 * thickness, placeable and not) against a cube (float vertices), an
 * icosphere (double vertices), an open bowl (double vertices) and a terrain
 * patch (float vertices in strided records) at random
 * placements near the surface, collided with several contact limits (and
 * CONTACTS_UNIMPORTANT) and in both argument orders. Then a mesh body
 * dropped on heightfields, stepped 2000 times. Every contact and state is
 * printed in full precision. tests/collide_heightfield_trimesh.rs runs it
 * against Debian's libode.so.8 and ours and compares the traces.
 * Argument (optional): placements per heightfield kind. */
#include "ref_prim_common.h"
#include "tmesh_meshes.h"
#include <stdlib.h>

#define NHF 6

static dHeightfieldDataID hdata[NHF];
static double hd_double[9 * 7];
static unsigned char hd_byte[6 * 6];
static short hd_short[8 * 5];
static float hd_single[7 * 6];
static double hd_wrap[10 * 10];
static double hlo[NHF], hhi[NHF], hw[NHF], hdp[NHF];
static const char *hname[NHF] = {"callback", "byte", "short", "single", "double", "double-wrapped"};

static dReal wave(void *user, int x, int z)
{
    (void)user;
    return 0.6 * sin(0.7 * x) * cos(0.5 * z) + 0.1 * x;
}

static void build(void)
{
    int i;
    for (i = 0; i < 9 * 7; i++) hd_double[i] = urand(0, 1);
    hd_double[10] = hd_double[11] = hd_double[19] = hd_double[20] = 0.5; /* a flat patch */
    for (i = 0; i < 6 * 6; i++) hd_byte[i] = (unsigned char)irand(256);
    for (i = 0; i < 8 * 5; i++) hd_short[i] = (short)(irand(2001) - 1000);
    for (i = 0; i < 7 * 6; i++) hd_single[i] = (float)(0.3 * sin(0.9 * i));
    for (i = 0; i < 10 * 10; i++) hd_wrap[i] = (double)((i % 10) / 3) * 0.5 + ((i / 10) % 2) * 0.25;

    for (i = 0; i < NHF; i++) hdata[i] = dGeomHeightfieldDataCreate();
    dGeomHeightfieldDataBuildCallback(hdata[0], 0, wave, 9, 9, 13, 13, 1, 0, 0.5, 0);
    dGeomHeightfieldDataSetBounds(hdata[0], -0.6, 1.8);
    hw[0] = 9; hdp[0] = 9; hlo[0] = -0.6; hhi[0] = 1.8;
    dGeomHeightfieldDataBuildByte(hdata[1], hd_byte, 1, 5, 5, 6, 6, 0.004, -0.5, 0.5, 0);
    hw[1] = 5; hdp[1] = 5; hlo[1] = -0.5; hhi[1] = 0.52;
    dGeomHeightfieldDataBuildShort(hdata[2], hd_short, 1, 7, 4, 8, 5, 0.001, 0, 2.0, 0);
    hw[2] = 7; hdp[2] = 4; hlo[2] = -1; hhi[2] = 1;
    dGeomHeightfieldDataBuildSingle(hdata[3], hd_single, 0, 6, 5, 7, 6, 1, 0, 0.1, 0);
    hw[3] = 6; hdp[3] = 5; hlo[3] = -0.3; hhi[3] = 0.3;
    dGeomHeightfieldDataBuildDouble(hdata[4], hd_double, 0, 8, 6, 9, 7, 1.5, -0.2, 1.0, 0);
    hw[4] = 8; hdp[4] = 6; hlo[4] = -0.2; hhi[4] = 1.3;
    dGeomHeightfieldDataBuildDouble(hdata[5], hd_wrap, 1, 4.5, 4.5, 10, 10, 1, 0, 0.3, 1);
    hw[5] = 4.5; hdp[5] = 4.5; hlo[5] = 0; hhi[5] = 1.25;
}

static void print_contacts(const char *tag, int flags, int n, dContactGeom *c, dGeomID a, dGeomID b)
{
    int i, j;
    printf("%s %d %d", tag, flags, n);
    for (i = 0; i < n; i++) {
        printf("\n ");
        for (j = 0; j < 3; j++) printf(" %.17g", c[i].pos[j]);
        for (j = 0; j < 3; j++) printf(" %.17g", c[i].normal[j]);
        printf(" %.17g %d %d %d %d", c[i].depth, c[i].side1, c[i].side2, c[i].g1 == a, c[i].g2 == b);
    }
    printf("\n");
}

#define MAXC 64
static const int flag_set[] = {1, 3, 8, MAXC, (int)(MAXC | CONTACTS_UNIMPORTANT)};

static void collide_all(dGeomID hf, dGeomID o)
{
    dContactGeom c[MAXC];
    int f, n;
    for (f = 0; f < 5; f++) {
        memset(c, 0, sizeof c);
        n = dCollide(hf, o, flag_set[f], c, sizeof(dContactGeom));
        print_contacts("F", flag_set[f], n, c, hf, o);
    }
    memset(c, 0, sizeof c);
    n = dCollide(o, hf, MAXC, c, sizeof(dContactGeom));
    print_contacts("R", MAXC, n, c, o, hf);
}

#define NMESH 4
static dTriMeshDataID mesh[NMESH];
static const double mesh_size[NMESH] = {0.9, 1.0, 2.9, 4.0}; /* bounding radius, roughly */
static const char *mesh_name[NMESH] = {"cube", "icosphere", "bowl", "terrain"};

static void run_kind(int v, int n)
{
    int k, i;
    for (k = 0; k < n; k++) {
        int m = irand(NMESH), placeable = irand(3) == 0;
        double size = mesh_size[m], loc[3], wpos[3], hpos[3];
        dMatrix3 Rh, Ro, Rw;
        dGeomID hf = dCreateHeightfield(0, hdata[v], placeable);
        dGeomID o = dCreateTriMesh(0, mesh[m], 0, 0, 0);
        loc[0] = urand(-0.65, 0.65) * hw[v];
        loc[2] = urand(-0.65, 0.65) * hdp[v];
        loc[1] = urand(hlo[v] - 0.8 * size, hhi[v] + 0.6 * size);
        if (k % 17 == 0) loc[1] = hlo[v] - 3 - size; /* entirely below */
        rand_rotation(Ro);
        if (placeable) {
            rand_rotation(Rh);
            for (i = 0; i < 3; i++) hpos[i] = urand(-3, 3);
            dGeomSetPosition(hf, hpos[0], hpos[1], hpos[2]);
            dGeomSetRotation(hf, Rh);
            local_to_world(wpos, hpos, Rh, loc);
            dMultiply0_333(Rw, Rh, Ro);
        } else {
            memcpy(wpos, loc, sizeof wpos);
            memcpy(Rw, Ro, sizeof Rw);
        }
        place(o, wpos, Rw);
        printf("P %s %s placeable %d %.17g %.17g %.17g\n", hname[v], mesh_name[m], placeable, wpos[0], wpos[1], wpos[2]);
        collide_all(hf, o);
        dGeomDestroy(o);
        dGeomDestroy(hf);
    }
}

/* A cube mesh body dropped on a rolling heightfield (cells of `cell`,
 * heights of amplitude `amp`), in a space, stepped 2000 times with
 * QuickStep or the big-matrix stepper. */
static dWorldID world;
static dJointGroupID contacts;
static double drop_amp;

static dReal drop_wave(void *user, int x, int z)
{
    (void)user;
    return drop_amp * sin(0.7 * x) * cos(0.5 * z) + 0.05 * x;
}

static void near_cb(void *data, dGeomID a, dGeomID b)
{
    dContact c[16];
    int n, i;
    (void)data;
    n = dCollide(a, b, 16, &c[0].geom, sizeof(dContact));
    for (i = 0; i < n; i++) {
        c[i].surface.mode = dContactApprox1;
        c[i].surface.mu = 0.8;
        dJointID j = dJointCreateContact(world, contacts, &c[i]);
        dJointAttach(j, dGeomGetBody(a), dGeomGetBody(b));
    }
}

static void drop_scene(double cell, double amp, int quick)
{
    dSpaceID space = dHashSpaceCreate(0);
    dHeightfieldDataID h = dGeomHeightfieldDataCreate();
    dGeomID g;
    dBodyID b;
    dMass mass;
    dMatrix3 R;
    int s;
    drop_amp = amp;
    dGeomHeightfieldDataBuildCallback(h, 0, drop_wave, 12 * cell, 12 * cell, 13, 13, 1, 0, 0.5, 0);
    dGeomHeightfieldDataSetBounds(h, -amp - 1, amp + 1);
    dCreateHeightfield(space, h, 1);
    g = dCreateTriMesh(space, mesh[0], 0, 0, 0);
    world = dWorldCreate();
    contacts = dJointGroupCreate(0);
    dWorldSetGravity(world, 0, -9.81, 0);
    b = dBodyCreate(world);
    dMassSetSphereTotal(&mass, 1.0, 0.7);
    dBodySetMass(b, &mass);
    dBodySetPosition(b, 0.3, 2.5, -0.4);
    dRFromAxisAndAngle(R, 0.3, 1, 0.2, 0.5);
    dBodySetRotation(b, R);
    dGeomSetBody(g, b);
    for (s = 1; s <= 2000; s++) {
        dSpaceCollide(space, 0, near_cb);
        if (quick)
            dWorldQuickStep(world, 0.005);
        else
            dWorldStep(world, 0.005);
        dJointGroupEmpty(contacts);
        if (s % 100 == 0) {
            const dReal *p = dBodyGetPosition(b);
            printf("S cell %g amp %g quick %d step %d %.17g %.17g %.17g\n", cell, amp, quick, s, p[0], p[1], p[2]);
        }
    }
    dJointGroupDestroy(contacts);
    dWorldDestroy(world);
    dSpaceDestroy(space);
    dGeomHeightfieldDataDestroy(h);
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 200, v;
    dInitODE2(0);
    build();
    mesh[0] = tm_cube(0.5f);
    mesh[1] = tm_icosphere();
    mesh[2] = tm_bowl();
    mesh[3] = tm_terrain();
    for (v = 0; v < NHF; v++) run_kind(v, n);
    drop_scene(1, 0.3, 1);
    drop_scene(2, 0.3, 1);
    drop_scene(1, 0.3, 0);
    drop_scene(3, 0.5, 0);
    for (v = 0; v < NHF; v++) dGeomHeightfieldDataDestroy(hdata[v]);
    for (v = 0; v < NMESH; v++) dGeomTriMeshDataDestroy(mesh[v]);
    dCloseODE();
    printf("done\n");
    return 0;
}
