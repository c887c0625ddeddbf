/* Reads NVIDIA Fabric Manager's texts (docs/import.md "Fabric Manager"): its log
   (/var/log/fabricmanager.log, "[May 16 2025 15:10:21] [INFO] [tid 30042] message"), the same
   lines through journalctl -u nvidia-fabricmanager ("... nv-fabricmanager[29850]: ..."),
   systemctl status / start nvidia-fabricmanager, and the GPU Operator driver container's
   start lines, into the document's top-level "fabric_managers" (docs/schema.md): the version,
   the service state, the failures (a version other than the driver's, no NVSwitch found, the
   service not installed or failing to start, an invalid configuration, training failures)
   and the NVSwitch errors it reports with their SXid. */
#ifndef LS_IMPORT_FABRIC_MANAGER_H
#define LS_IMPORT_FABRIC_MANAGER_H

#include <jansson.h>
#include <stddef.h>

/* 1 when a line is Fabric Manager's: its process tag (nv-fabricmanager[PID]), its unit
   (nvidia-fabricmanager.service), its start script, its command line, its log's "[LEVEL]
   [tid N]" form, its version-mismatch text, or its own wording ("fabric manager",
   "NVSwitch") after a level tag, a journal prefix or a host's tag; a line that only names
   it is not. */
int ls_fabric_manager_detect(const char *text);

/* The text's lines that are not Fabric Manager's, systemd's or systemctl's about it (a copy
   to free; NULL when out of memory): what another reader reads of a mixed paste
   ("systemctl status nvidia-fabricmanager; nvidia-smi -q | grep -A3 Fabric"). */
char *ls_fabric_manager_others(const char *text);

/* Appends one fabric_managers[] object for the file: the number of failure and NVSwitch
   error records kept, or -1 with err. */
int ls_import_fabric_manager(json_t *doc, const char *text, const char *name, char *err,
                             size_t errlen);

#endif
