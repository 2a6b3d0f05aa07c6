/**
 * Services named in the person's language: the one in the store (the current appointment's),
 * and any other a past appointment names, read once with `service-read` and kept for the page's
 * life (service names do not change while someone looks).
 */
import { useEffect, useState } from 'react';
import { isRecord } from '../isRecord';
import type { Locale } from '../i18n/locale';
import { callFunction } from '../realtime';
import { useAppStore } from '../store';
import { selectService } from '../store/selectors';

type Names = Record<string, unknown>;
const known = new Map<string, Names>();

function nameIn(names: Names | undefined, locale: Locale): string | null {
  const name = names?.[locale];
  return typeof name === 'string' && name !== '' ? name : null;
}

export function useServiceNames(wanted: readonly { clinicId: string | null; serviceId: string | null }[], locale: Locale): (serviceId: string | null) => string | null {
  const service = useAppStore(selectService);
  const [, setRead] = useState(0);
  const stored = service?.exists && isRecord(service.data) && typeof service.data.id === 'string' && isRecord(service.data.name) ? service.data : null;
  const key = wanted.map((entry) => `${entry.clinicId ?? ''}/${entry.serviceId ?? ''}`).join(',');

  useEffect(() => {
    let live = true;
    const missing = new Map<string, string>();
    for (const { clinicId, serviceId } of wanted) {
      if (clinicId !== null && serviceId !== null && !known.has(serviceId) && serviceId !== stored?.id) missing.set(serviceId, clinicId);
    }
    for (const [serviceId, clinicId] of missing) {
      callFunction('service-read', { id: serviceId, clinicId }).then(
        (data) => {
          if (isRecord(data) && isRecord(data.name)) known.set(serviceId, data.name);
          if (live) setRead((n) => n + 1);
        },
        () => undefined, // unnamed: the screen says "Genetic counseling"
      );
    }
    return () => {
      live = false;
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps -- `key` stands for `wanted`
  }, [key, stored?.id]);

  return (serviceId) => {
    if (serviceId === null) return null;
    if (stored !== null && stored.id === serviceId) return nameIn(stored.name as Names, locale);
    return nameIn(known.get(serviceId), locale);
  };
}
