import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fakeServer, refuse, reply, type FakeServer } from '../test/fakeServer';
import { renderApp } from '../test/renderApp';
import { admin, counselorSato, resetClinicDocuments } from '../test/staff';

let view: ReturnType<typeof renderApp> | undefined;
let server: FakeServer;

const SATO = {
  counselorId: 'c-sato',
  name: { ja: '佐藤 花子', en: 'Hanako Sato' },
  languages: ['ja'],
  version: 4,
  weekly: [{ weekday: 0, start: '09:00', end: '12:00' }],
  exceptions: [{ date: '2099-01-05', kind: 'off' }],
};
const TANAKA = { ...SATO, counselorId: 'c-tanaka', name: { ja: '田中 一郎', en: 'Ichiro Tanaka' }, weekly: [], exceptions: [], version: 1 };
const HOLIDAYS = { version: 2, days: [{ date: '2099-01-01', name: "New Year's Day" }] };

beforeEach(() => {
  resetClinicDocuments();
  server = fakeServer({
    '/functions/schedule-read': () => reply({ timezone: 'Asia/Tokyo', counselors: [SATO, TANAKA], holidays: HOLIDAYS }),
  });
});

afterEach(() => {
  view?.unmount();
  view = undefined;
});

const cell = (name: string) => screen.getByRole('gridcell', { name });
const announcer = () => screen.getByTestId('schedule-announcer');

async function openAsAdmin() {
  view = renderApp('/staff/schedule', { user: admin });
  await screen.findByRole('grid', { name: 'Weekly hours' });
}

describe('/staff/schedule', () => {
  it("shows the first counselor's week in the clinic's zone, windows as blocks, and the clinic's closed days", async () => {
    await openAsAdmin();
    expect(server.calls('schedule-read')).toEqual([{ clinicId: 'demo-clinic' }]);
    expect(screen.getByText("Times are in the clinic's time zone: Japan Standard Time.")).toBeTruthy();
    const headers = within(screen.getByRole('grid')).getAllByRole('columnheader').map((header) => header.textContent);
    expect(headers).toEqual(['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun']);
    expect(cell('Monday 09:00–09:30, in hours 09:00–12:00').textContent).toBe('09:00–12:00');
    expect(cell('Monday 11:30–12:00, in hours 09:00–12:00')).toBeTruthy();
    expect(cell('Monday 12:00–12:30, no hours')).toBeTruthy();
    expect(screen.getByText('Monday, January 5, 2099: day off')).toBeTruthy();
    expect(screen.getByText(/Thursday, January 1, 2099 New Year's Day/)).toBeTruthy();
    expect(screen.getByRole<HTMLButtonElement>('button', { name: 'Save schedule' }).disabled).toBe(true);
  });

  it('adds a window by keyboard alone, announces it in words, and saves it with the version read', async () => {
    const user = userEvent.setup();
    server.on('/functions/schedule-update', () =>
      reply({
        schedule: { ...SATO, version: 5, weekly: [...SATO.weekly, { weekday: 1, start: '09:30', end: '11:00' }] },
        conflicts: [
          { appointmentId: 'a-7', start: '2099-01-06T14:00:00+09:00', end: '2099-01-06T15:00:00+09:00', counselorId: 'c-sato', status: 'confirmed', name: 'Aoi Suzuki' },
          { appointmentId: 'a-8', start: '2099-01-07T10:00:00+09:00', end: '2099-01-07T11:00:00+09:00', counselorId: 'c-sato', status: 'draft', name: null },
        ],
      }),
    );
    await openAsAdmin();
    const grid = screen.getByRole('grid');
    // One tab stop: the focusable cell is Monday 09:00.
    expect(within(grid).getAllByRole('gridcell').filter((item) => item.tabIndex === 0)).toHaveLength(1);
    act(() => {
      cell('Monday 09:00–09:30, in hours 09:00–12:00').focus();
    });
    await user.keyboard('{ArrowRight}{ArrowDown}');
    expect(document.activeElement).toBe(cell('Tuesday 09:30–10:00, no hours'));
    await user.keyboard('{Shift>}{ArrowDown}{ArrowDown}{/Shift}');
    expect(announcer().textContent).toBe('Selected Tuesday 09:30–11:00. Press Enter to add it.');
    expect(within(grid).getAllByRole('gridcell').filter((item) => item.getAttribute('aria-selected') === 'true')).toHaveLength(3);
    await user.keyboard('{Enter}');
    expect(announcer().textContent).toBe('Added Tuesday 09:30–11:00. Not saved yet.');
    expect(cell('Tuesday 10:30–11:00, in hours 09:30–11:00')).toBeTruthy();
    expect(screen.getByText('You have changes that are not saved.')).toBeTruthy();

    await user.click(screen.getByRole('button', { name: 'Save schedule' }));
    await screen.findByRole('heading', { name: '2 bookings are outside the new hours' });
    expect(server.calls('schedule-update')).toEqual([
      {
        clinicId: 'demo-clinic',
        counselorId: 'c-sato',
        version: 4,
        weekly: [
          { weekday: 0, start: '09:00', end: '12:00' },
          { weekday: 1, start: '09:30', end: '11:00' },
        ],
        exceptions: [{ date: '2099-01-05', kind: 'off' }],
        languages: ['ja'],
      },
    ]);
    const link = screen.getByRole('link', { name: 'Open (Aoi Suzuki)' });
    expect(link.getAttribute('href')).toBe('/staff/appointments/a-7');
    const row = link.closest('tr');
    expect(row?.textContent).toContain('Jan 6, 2099, 14:00–15:00');
    expect(row?.textContent).toContain('Hanako Sato');
    expect(row?.textContent).toContain('Confirmed');
    // A live hold (`draft`) reads as one; a person without a name yet is said so.
    const held = screen.getByRole('link', { name: 'Open (No name given)' }).closest('tr');
    expect(held?.textContent).toContain('Jan 7, 2099, 10:00–11:00');
    expect(held?.textContent).toContain('On hold');
    expect(announcer().textContent).toBe('The schedule was saved.');
  });

  it('edits exact times in the form, the accessible twin of the grid', async () => {
    const user = userEvent.setup();
    await openAsAdmin();
    await user.click(screen.getByText('Exact times'));
    expect(screen.getByLabelText('Start (Monday)')).toHaveProperty('value', '09:00');
    await user.click(screen.getByRole('button', { name: 'Add hours on Monday' }));
    expect(announcer().textContent).toBe('Added Monday 13:00–14:00. Not saved yet.');
    const end = screen.getByLabelText('End (Monday, hours 2)');
    await user.clear(end);
    await user.type(end, '15:00');
    expect(cell('Monday 14:30–15:00, in hours 13:00–15:00')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Remove the hours Monday 09:00–12:00' }));
    expect(cell('Monday 09:00–09:30, no hours')).toBeTruthy();
    expect(screen.getByLabelText('Start (Monday)')).toHaveProperty('value', '13:00');
  });

  it('removes the window under the focus with Delete', async () => {
    const user = userEvent.setup();
    await openAsAdmin();
    act(() => {
      cell('Monday 09:00–09:30, in hours 09:00–12:00').focus();
    });
    await user.keyboard('{ArrowDown}{Delete}');
    expect(announcer().textContent).toBe('Removed Monday 09:00–12:00. Not saved yet.');
    expect(cell('Monday 09:30–10:00, no hours')).toBeTruthy();
    await user.keyboard('{Delete}');
    expect(announcer().textContent).toBe('There are no hours here to remove.');
  });

  it('adds a window by dragging down a day, selects one by clicking, and removes it with the button', async () => {
    const user = userEvent.setup();
    await openAsAdmin();
    await user.pointer([
      { keys: '[MouseLeft>]', target: cell('Wednesday 13:00–13:30, no hours') },
      { target: cell('Wednesday 13:30–14:00, no hours') },
      { target: cell('Wednesday 14:30–15:00, no hours') },
      { keys: '[/MouseLeft]', target: cell('Wednesday 14:30–15:00, no hours') },
    ]);
    expect(announcer().textContent).toBe('Added Wednesday 13:00–15:00. Not saved yet.');
    expect(cell('Wednesday 13:00–13:30, in hours 13:00–15:00').textContent).toBe('13:00–15:00');

    await user.click(cell('Monday 10:00–10:30, in hours 09:00–12:00'));
    expect(announcer().textContent).toBe('Selected the hours Monday 09:00–12:00. Press Delete to remove them.');
    await user.click(screen.getByRole('button', { name: 'Remove Monday 09:00–12:00' }));
    expect(cell('Monday 10:00–10:30, no hours')).toBeTruthy();
    expect(cell('Wednesday 13:00–13:30, in hours 13:00–15:00')).toBeTruthy();
  });

  it('keeps the change of a stale save on screen to redo, and shows the schedule as it is now', async () => {
    const user = userEvent.setup();
    const theirs = { ...SATO, version: 5, weekly: [{ weekday: 4, start: '13:00', end: '17:00' }] };
    server.on('/functions/schedule-update', () => refuse('ABORTED', 409, 'The schedule was changed meanwhile.', { version: 5, current: theirs }));
    await openAsAdmin();
    act(() => {
      cell('Monday 12:00–12:30, no hours').focus();
    });
    await user.keyboard('{Enter}');
    await user.click(screen.getByRole('button', { name: 'Save schedule' }));
    await screen.findByText(/Someone else changed this schedule meanwhile; it now shows their version\./);
    // Their version on the grid; mine listed in words.
    expect(cell('Friday 13:00–13:30, in hours 13:00–17:00')).toBeTruthy();
    expect(cell('Monday 09:00–09:30, no hours')).toBeTruthy();
    const lost = screen.getByRole('region', { name: 'Your change that was not saved' });
    expect(within(lost).getAllByRole('listitem').map((item) => item.textContent)).toEqual(['Monday 09:00–12:30', 'Monday, January 5, 2099: day off']);

    server.on('/functions/schedule-update', () => reply({ schedule: { ...theirs, version: 6, weekly: [{ weekday: 0, start: '09:00', end: '12:30' }] }, conflicts: [] }));
    await user.click(within(lost).getByRole('button', { name: 'Put my change back' }));
    expect(cell('Monday 12:00–12:30, in hours 09:00–12:30')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Save schedule' }));
    await waitFor(() => {
      expect(server.calls('schedule-update')).toHaveLength(2);
    });
    expect(server.calls('schedule-update')[1]).toMatchObject({ version: 5, weekly: [{ weekday: 0, start: '09:00', end: '12:30' }] });
  });

  it("shows the server's refusals next to the window and the exception they name, in the person's language", async () => {
    const user = userEvent.setup();
    server.on('/functions/schedule-update', () =>
      refuse('INVALID_ARGUMENT', 400, 'The schedule is not valid.', {
        fields: { 'weekly.0.end': 'A window must be at least as long as the shortest session (60 minutes).', 'exceptions.0.date': 'The date is before today.' },
        codes: { 'weekly.0.end': 'short', 'exceptions.0.date': 'past' },
      }),
    );
    view = renderApp('/staff/schedule', { user: admin, locale: 'ja' });
    await screen.findByRole('grid', { name: '毎週の受付時間' });
    act(() => {
      screen.getByRole('gridcell', { name: '月曜日 12:00〜12:30、受付なし' }).focus();
    });
    await user.keyboard('{Enter}');
    await user.click(screen.getByRole('button', { name: 'スケジュールを保存' }));
    await screen.findByText('スケジュールは保存されていません。下の印のついた項目を直してください。');
    const end = screen.getByLabelText('終了（月曜日）');
    expect(end.getAttribute('aria-invalid')).toBe('true');
    expect(document.getElementById(end.getAttribute('aria-describedby') ?? '')?.textContent).toBe('この受付時間は、クリニックのサービスで最も短い面談時間より短くなっています。');
    expect(screen.getByText('この日付はすでに過ぎています。')).toBeTruthy();
    expect(screen.getByRole('gridcell', { name: '月曜日 09:00〜09:30、受付時間 09:00〜12:30' }).hasAttribute('data-refused')).toBe(true);
  });

  it('imports the public holidays of a year in one click, showing first what will be added', async () => {
    const user = userEvent.setup();
    server.on('/functions/holidays-suggest', () =>
      reply({ country: 'JP', days: [{ date: '2099-01-01', name: "New Year's Day" }, { date: '2099-01-12', name: 'Coming of Age Day' }] }),
    );
    server.on('/functions/holidays-update', () =>
      reply({ holidays: { version: 3, days: [...HOLIDAYS.days, { date: '2099-01-12', name: 'Coming of Age Day' }] }, conflicts: [] }),
    );
    await openAsAdmin();
    const year = new Date().getFullYear();
    await user.click(screen.getByRole('button', { name: `Import Japan's public holidays for ${String(year)}` }));
    await screen.findByText(`1 day of ${String(year)} (Japan) will be added:`);
    expect(server.calls('holidays-suggest')).toEqual([{ clinicId: 'demo-clinic', year, locale: 'en' }]);
    expect(screen.getByText(/Monday, January 12, 2099 Coming of Age Day/)).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Add 1 day and save' }));
    await waitFor(() => {
      expect(server.calls('holidays-update')).toEqual([
        { clinicId: 'demo-clinic', version: 2, days: [HOLIDAYS.days[0], { date: '2099-01-12', name: 'Coming of Age Day' }] },
      ]);
    });
    await waitFor(() => {
      expect(screen.queryByRole('button', { name: 'Add 1 day and save' })).toBeNull();
    });
  });

  it("moves a booking the new hours no longer cover to a free time of its counselor, and says so when that time was taken", async () => {
    const user = userEvent.setup();
    const conflict = { appointmentId: 'a-7', start: '2099-01-06T14:00:00+09:00', end: '2099-01-06T15:00:00+09:00', counselorId: 'c-sato', serviceId: 'cancer-b2b', status: 'confirmed', name: 'Aoi Suzuki' };
    server.on('/functions/schedule-update', () => reply({ schedule: { ...SATO, version: 5, weekly: [] }, conflicts: [conflict] }));
    server.on('/functions/vacancies-read', () =>
      reply({
        timezone: 'Asia/Tokyo',
        slots: [
          { start: '2099-01-07T10:00:00+09:00', end: '2099-01-07T11:00:00+09:00', counselorIds: ['c-sato', 'c-tanaka'] },
          { start: '2099-01-07T13:00:00+09:00', end: '2099-01-07T14:00:00+09:00', counselorIds: ['c-tanaka'] },
          { start: '2099-01-08T09:00:00+09:00', end: '2099-01-08T10:00:00+09:00', counselorIds: ['c-sato'] },
        ],
      }),
    );
    let taken = true;
    server.on('/functions/appointment-reschedule', () =>
      taken ? refuse('ABORTED', 409, 'This time has just been taken.', { alternatives: [] }) : reply({ status: 'confirmed', date: '2099-01-08', time: '09:00', counselorId: 'c-sato', moved: true }),
    );
    await openAsAdmin();
    await user.click(screen.getByRole('button', { name: 'Remove (Monday, January 5, 2099: day off)' }));
    await user.click(screen.getByRole('button', { name: 'Save schedule' }));
    await user.click(await screen.findByRole('button', { name: 'Move (Aoi Suzuki)' }));
    const dialog = screen.getByRole('dialog', { name: 'Move the booking of Aoi Suzuki' });
    // The free times of the conflict's own service.
    const time = await within(dialog).findByLabelText('New time');
    expect(server.calls('vacancies-read')[0]).toMatchObject({ clinicId: 'demo-clinic', serviceId: 'cancer-b2b' });
    // Only the times of the same counselor.
    expect(within(time).getAllByRole('option').map((option) => option.textContent)).toEqual(['Choose a time', 'Jan 7, 2099, 10:00', 'Jan 8, 2099, 09:00']);
    await user.selectOptions(time, 'Jan 7, 2099, 10:00');
    await user.click(within(dialog).getByRole('button', { name: 'Move to this time' }));
    await within(dialog).findByText('That time has just been taken. The list has been updated: choose another.');
    await waitFor(() => {
      expect(server.calls('vacancies-read')).toHaveLength(2);
    });
    taken = false;
    await user.selectOptions(within(dialog).getByLabelText('New time'), 'Jan 8, 2099, 09:00');
    await user.click(within(dialog).getByRole('button', { name: 'Move to this time' }));
    await screen.findByText('Moved to Jan 8, 2099, 09:00.');
    expect(server.calls('appointment-reschedule')).toEqual([
      { appointmentId: 'a-7', start: '2099-01-07T10:00:00+09:00', counselorId: 'c-sato' },
      { appointmentId: 'a-7', start: '2099-01-08T09:00:00+09:00', counselorId: 'c-sato' },
    ]);
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(screen.queryByRole('heading', { name: /outside the new hours/ })).toBeNull();
  });

  it('keeps a stale list of closed days to put back, and shows the stored one', async () => {
    const user = userEvent.setup();
    const theirs = { version: 3, days: [{ date: '2099-02-11', name: 'National Foundation Day' }] };
    server.on('/functions/holidays-update', () => refuse('ABORTED', 409, 'Changed meanwhile.', { version: 3, current: theirs }));
    await openAsAdmin();
    await user.click(screen.getByRole('button', { name: 'Remove Thursday, January 1, 2099' }));
    await user.click(screen.getByRole('button', { name: 'Save closed days' }));
    await screen.findByText(/Someone else changed the closed days meanwhile; the list now shows theirs\./);
    expect(server.calls('holidays-update')).toEqual([{ clinicId: 'demo-clinic', version: 2, days: [] }]);
    expect(screen.getByText('Wednesday, February 11, 2099 National Foundation Day')).toBeTruthy();
    expect(screen.getByText('Your list: No closed days from today.')).toBeTruthy();
    server.on('/functions/holidays-update', () => reply({ holidays: { version: 4, days: [] }, conflicts: [] }));
    await user.click(screen.getByRole('button', { name: 'Put my change back' }));
    await user.click(screen.getByRole('button', { name: 'Save closed days' }));
    await screen.findByText('Closed days saved (0 days).');
    expect(screen.getByText('No closed days from today.')).toBeTruthy();
    expect(server.calls('holidays-update')[1]).toEqual({ clinicId: 'demo-clinic', version: 3, days: [] });
  });

  it("gives a counselor their own schedule, and the clinic's closed days to read only", async () => {
    server.on('/functions/schedule-read', () => reply({ timezone: 'Asia/Tokyo', counselors: [SATO], holidays: HOLIDAYS }));
    view = renderApp('/staff/schedule', { user: counselorSato });
    await screen.findByRole('grid', { name: 'Weekly hours' });
    expect(server.calls('schedule-read')).toEqual([{ clinicId: 'demo-clinic', counselorId: 'c-sato' }]);
    expect(screen.getByText('Schedule of Hanako Sato')).toBeTruthy();
    // The clinic's closed days, to read only.
    expect(screen.getByRole('heading', { name: 'Clinic closed days' })).toBeTruthy();
    expect(screen.getByText("Thursday, January 1, 2099 New Year's Day")).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Save closed days' })).toBeNull();
    expect(screen.queryByRole('button', { name: /public holidays/ })).toBeNull();
    expect(screen.queryByLabelText('Counselor')).toBeNull();
  });
});
