/* What the games' compiled searches (patience/golf/_golf.c, patience/worm_hole/_worm_hole.c) share:
 * the clock their limits are read on, the reading of a Python list of numbers, and the module that
 * carries the digest of its sources (setup.py's source_digest; the game's `compiled()` compares it).
 * Each includes this once, after Python.h; setup.py lists it in each extension's `depends`, which puts
 * it in the sdist (the wheel holds it compiled, as it holds the sources). */
#ifndef PATIENCE_EXTENSION_H
#define PATIENCE_EXTENSION_H

#include <stdlib.h>
#include <time.h>

/* seconds on `clock`: CLOCK_MONOTONIC for the wall-clock limit, a CPU clock for the CPU limit */
static double now(clockid_t clock) {
    struct timespec spec;
    clock_gettime(clock, &spec);
    return (double)spec.tv_sec + (double)spec.tv_nsec * 1e-9;
}

/* A sequence of Python ints as a malloc'ed array (one slot at least) and its length; 0 with the
 * Python error set (not a sequence, not an int, out of memory), nothing left to free. */
static int int_list(PyObject *object, const char *what, long **out, Py_ssize_t *length) {
    PyObject *fast = PySequence_Fast(object, what);
    if (!fast) return 0;
    *length = PySequence_Fast_GET_SIZE(fast);
    *out = malloc(sizeof(long) * (size_t)(*length > 0 ? *length : 1));
    if (!*out) {
        Py_DECREF(fast);
        PyErr_NoMemory();
        return 0;
    }
    for (Py_ssize_t index = 0; index < *length; index++) {
        (*out)[index] = PyLong_AsLong(PySequence_Fast_GET_ITEM(fast, index));
        if ((*out)[index] == -1 && PyErr_Occurred()) {
            Py_DECREF(fast);
            free(*out);
            return 0;
        }
    }
    Py_DECREF(fast);
    return 1;
}

/* The digest of the sources an extension was built from (setup.py defines PATIENCE_SOURCE). */
#ifdef PATIENCE_SOURCE
#define SOURCE_DIGEST PATIENCE_SOURCE
#else
#define SOURCE_DIGEST NULL
#endif

static PyMethodDef search_methods[2];
static struct PyModuleDef search_definition;

/* The module `name` (docstring `doc`) of one function, `search`, and SOURCE, the sources' digest
 * where setup.py gave one (an extension built by hand has none). */
static PyObject *search_module(const char *name, const char *doc, PyCFunction search, const char *search_doc) {
    search_methods[0] = (PyMethodDef){"search", search, METH_VARARGS, search_doc};
    search_definition = (struct PyModuleDef){PyModuleDef_HEAD_INIT, name, doc, -1, search_methods, NULL, NULL, NULL,
                                             NULL};
    PyObject *module = PyModule_Create(&search_definition);
    if (module && SOURCE_DIGEST && PyModule_AddStringConstant(module, "SOURCE", SOURCE_DIGEST) < 0) {
        Py_DECREF(module);
        return NULL;
    }
    return module;
}

#endif
