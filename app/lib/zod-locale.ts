// French default messages for zod. Every form schema gives its own French messages; this covers
// the structural errors only a hand-crafted request can trigger (wrong type, unknown option).
import { z } from "zod";

z.config(z.locales.fr());
