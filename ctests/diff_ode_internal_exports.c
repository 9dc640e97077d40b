/* DIFF-TOL rel=0 abs=0 */
/* The functions Debian's libode.so.8 exports without declaring them in a
 * header: dGeomMoved, dGeomGetBodyNext, OPCODE's Rand/SRand/Alignment/
 * InitOpcode/CloseOpcode, ODE's LCP self-test dTestSolveLCP (its report
 * printed without the timing columns) and dTestDataStructures (an endless
 * self-test: run for a second in a child process, which must still be
 * running, silently, when the alarm ends it). */
#define _GNU_SOURCE /* fork, dup, mkstemp under -std=c99 */
#include <ode/ode.h>
#include <stdio.h>
#include <string.h>
#include <signal.h>
#include <unistd.h>
#include <fcntl.h>
#include <sys/wait.h>

/* not in ODE's headers */
void dGeomMoved(dGeomID);
dGeomID dGeomGetBodyNext(dGeomID);
int dTestSolveLCP(void);
void dTestDataStructures(void);
void SRand(unsigned);
unsigned Rand(void);
unsigned Alignment(unsigned);
_Bool InitOpcode(void *);
_Bool CloseOpcode(void);

static int idx(dGeomID g, dGeomID *gs, int n)
{
    for (int i = 0; i < n; i++) if (gs[i] == g) return i;
    return -1;
}

int main(void)
{
    dInitODE2(0);
    /* dGeomGetBodyNext walks a body's geoms like dBodyGetNextGeom */
    dWorldID w = dWorldCreate();
    dBodyID b = dBodyCreate(w);
    dSpaceID s = dHashSpaceCreate(0);
    dGeomID gs[4];
    for (int i = 0; i < 4; i++) {
        gs[i] = dCreateSphere(s, 0.5 + i);
        if (i < 3) dGeomSetBody(gs[i], b);
    }
    for (dGeomID g = dBodyGetFirstGeom(b); g; g = dGeomGetBodyNext(g))
        printf("body geom %d next %d\n", idx(g, gs, 4), idx(dGeomGetBodyNext(g), gs, 4));
    printf("no body next %d\n", idx(dGeomGetBodyNext(gs[3]), gs, 4));
    /* dGeomMoved only marks the geom (and its space) dirty */
    dReal aabb[6];
    dGeomGetAABB(gs[3], aabb);
    printf("aabb %.17g %.17g\n", aabb[0], aabb[1]);
    dGeomMoved(gs[3]);
    dGeomGetAABB(gs[3], aabb);
    printf("aabb after moved %.17g %.17g\n", aabb[0], aabb[1]);
    /* OPCODE's utilities */
    SRand(7);
    printf("rand %u %u %u\n", Rand(), Rand(), Rand());
    printf("alignment %u %u %u %u %u\n", Alignment(0), Alignment(1), Alignment(12), Alignment(1024), Alignment(0x80000000u));
    printf("opcode %d %d\n", (int)InitOpcode(0), (int)CloseOpcode());
    fflush(stdout);

    /* dTestSolveLCP's report, timing columns cut */
    char path[] = "/tmp/ode_lcp_XXXXXX";
    int fd = mkstemp(path), saved = dup(1);
    dup2(fd, 1);
    int r = dTestSolveLCP();
    fflush(stdout);
    dup2(saved, 1);
    close(saved);
    FILE *f = fopen(path, "r");
    char line[256];
    int lines = 0;
    while (f && fgets(line, sizeof line, f)) {
        char *t = strstr(line, "   time=");
        if (t) strcpy(t, "\n");
        fputs(line, stdout);
        lines++;
    }
    if (f) fclose(f);
    close(fd);
    unlink(path);
    printf("dTestSolveLCP returned %d, %d lines\n", r, lines);
    fflush(stdout);

    pid_t pid = fork();
    if (pid == 0) {
        alarm(1);
        dTestDataStructures();
        _exit(3); /* never reached */
    }
    int st = 0;
    waitpid(pid, &st, 0);
    printf("dTestDataStructures: %s\n", WIFSIGNALED(st) && WTERMSIG(st) == SIGALRM ? "still running after 1 s" : "ended");

    dSpaceDestroy(s);
    dWorldDestroy(w);
    dCloseODE();
    printf("done\n");
    return 0;
}
