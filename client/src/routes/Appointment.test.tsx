import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { completeIntake, pushMonth, resetMonths, seedBooking, simulateBrowserZone, slot } from '../test/booking';
import { fakeServer, refuse, reply, type FakeServer } from '../test/fakeServer';
import { fakeSaves } from '../test/intake';
import { alice, renderApp } from '../test/renderApp';

let view: ReturnType<typeof renderApp> | undefined;
let server: FakeServer;

/** The month's free times as the server has them (the first look-up). */
const march = [slot('2025-03-05T10:00'), slot('2025-03-05T11:00', ['c-sato']), slot('2025-03-06T09:00'), slot('2025-03-20T14:00')];

beforeEach(() => {
  // The person is in the clinic's zone unless a test says otherwise (one time shown).
  vi.stubEnv('TZ', 'Asia/Tokyo');
  // Monday 3 March 2025, 09:00 in Tokyo. Only Date is faked: the screens' own timers run.
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(new Date('2025-03-03T00:00:00Z'));
  resetMonths();
  server = fakeServer({ '/functions/vacancies-read': () => reply({ timezone: 'Asia/Tokyo', slots: march }) });
});

afterEach(() => {
  vi.unstubAllEnvs();
  view?.unmount();
  view = undefined;
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

async function openCalendar(options: Parameters<typeof seedBooking>[0] = {}, locale: 'en' | 'ja' = 'en') {
  view = renderApp('/b/appointment', { user: alice, locale });
  seedBooking({ category: 'cancer', intake: completeIntake, fields: { patientRole: 90 }, locale, ...options });
  await screen.findByRole('heading', { level: 1, name: locale === 'en' ? 'Choose a date and time' : '日時の選択' });
}

const day = (name: string) => screen.getByRole('button', { name });

/** Opens the calendar (in `locale`) with March free, and chooses Wednesday 5 March at 10:00. */
async function choose5MarchAt10(user: ReturnType<typeof userEvent.setup>, locale: 'en' | 'ja' = 'en') {
  await openCalendar({}, locale);
  await pushMonth('2025-03', march);
  await user.click(day(locale === 'en' ? 'Wednesday, March 5, 2025' : '2025年3月5日水曜日'));
  await user.click(screen.getByRole('radio', { name: '10:00' }));
}

/** appointment-hold refuses: the booking has held times for as long as it may, until 09:41 in Tokyo. */
function refuseAtHoldLimit() {
  server.on('/functions/appointment-hold', () =>
    refuse('ABORTED', 409, 'This booking has kept a time on hold for as long as allowed.', {
      reason: 'holdLimit',
      retryAfter: '2025-03-03T00:41:00.000Z',
    }),
  );
}

describe('/b/appointment: the calendar', () => {
  it('looks for free times, then shows the month as 6 weeks of 7 days, free days in the clinic zone', async () => {
    await openCalendar();
    expect(await screen.findByText('Looking for available times…')).toBeTruthy();
    await pushMonth('2025-03', march);
    const grid = await screen.findByRole('grid', { name: 'March 2025' });
    const rows = within(grid).getAllByRole('row');
    expect(rows).toHaveLength(7); // the weekday names, then 6 weeks
    for (const row of rows.slice(1)) expect(within(row).getAllByRole('gridcell')).toHaveLength(7);
    expect(within(grid).getAllByRole('columnheader').map((th) => th.textContent)).toEqual([
      'Sun',
      'Mon',
      'Tue',
      'Wed',
      'Thu',
      'Fri',
      'Sat',
    ]);
    expect(day('Wednesday, March 5, 2025').getAttribute('aria-disabled')).toBeNull();
    expect(day('Thursday, March 20, 2025').getAttribute('aria-disabled')).toBeNull();
    expect(day('Tuesday, March 4, 2025, no available times').getAttribute('aria-disabled')).toBe('true');
    expect(day('Monday, March 3, 2025, no available times').getAttribute('aria-current')).toBe('date');
    expect(screen.getByText("Dates and times are in the clinic's time zone: Japan Standard Time.")).toBeTruthy();
    expect(screen.queryByText('Looking for available times…')).toBeNull();
    expect(server.calls('vacancies-read')).toEqual([
      { clinicId: 'demo-clinic', serviceId: 'cancer-svc', from: '2025-03-03', to: '2025-05-02' },
    ]);
  });

  it('says the session length and the price before a time is chosen', async () => {
    await openCalendar({ service: { price: { amount: 16500, currency: 'JPY' }, sessionMinutes: 45 } });
    expect(screen.getByText('Session: 45 minutes. Price: ¥16,500.')).toBeTruthy();
    view?.unmount();
    await openCalendar({}, 'ja');
    expect(screen.getByText('カウンセリング時間: 60分')).toBeTruthy();
  });

  it('a disabled day cannot be chosen', async () => {
    const user = userEvent.setup();
    await openCalendar();
    await pushMonth('2025-03', march);
    await user.click(day('Tuesday, March 4, 2025, no available times'));
    expect(screen.queryByRole('group', { name: /^Times on/ })).toBeNull();
  });

  it("puts a time on the clinic's day even when the browser lives in another zone", async () => {
    simulateBrowserZone('America/Los_Angeles', -8);
    const user = userEvent.setup();
    await openCalendar();
    // 00:30 on 6 March in Tokyo is 07:30 on 5 March in Los Angeles.
    await pushMonth('2025-03', [slot('2025-03-06T00:30')]);
    expect(day('Wednesday, March 5, 2025, no available times').getAttribute('aria-disabled')).toBe('true');
    await user.click(day('Thursday, March 6, 2025'));
    const times = screen.getByRole('group', { name: 'Times on Thursday, March 6, 2025 (Japan Standard Time)' });
    // Named by the clinic's time; the person's own (the day before, in Los Angeles) beside it.
    const radio = within(times).getByRole('radio', { name: '00:30' });
    expect(within(times).getAllByRole('radio')).toEqual([radio]);
    expect(document.getElementById(radio.getAttribute('aria-describedby') ?? '')?.textContent).toBe('Your time: Wed, Mar 5, 7:30 AM');
    expect(screen.getByText(/Under each time you also see your own time \(Pacific Time\)\./)).toBeTruthy();
  });

  it('moves between months within the horizon (buttons and swipes), following each month', async () => {
    const user = userEvent.setup();
    await openCalendar();
    await pushMonth('2025-03', march);
    expect(screen.getByRole('button', { name: 'Previous month' })).toHaveProperty('disabled', true);
    await user.click(screen.getByRole('button', { name: 'Next month' }));
    expect(screen.getByRole('heading', { level: 2, name: 'April 2025' })).toBeTruthy();
    expect(screen.getByText('Looking for available times…')).toBeTruthy();
    await pushMonth('2025-04', [slot('2025-04-02T10:00')]);
    expect(day('Wednesday, April 2, 2025').getAttribute('aria-disabled')).toBeNull();
    // A swipe to the left: the next month (May, the horizon's last).
    const calendar = screen.getByRole('grid', { name: 'April 2025' }).closest('.booking-calendar') ?? document.body;
    fireEvent.touchStart(calendar, { touches: [{ clientX: 250, clientY: 100 }] });
    fireEvent.touchEnd(calendar, { changedTouches: [{ clientX: 150, clientY: 110 }] });
    expect(screen.getByRole('heading', { level: 2, name: 'May 2025' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Next month' })).toHaveProperty('disabled', true);
    await pushMonth('2025-05', []);
    expect(await screen.findByText('There are no available times this month. Please try another month.')).toBeTruthy();
  });

  it('moves by keyboard: arrows by day and week, PageDown to the next month', async () => {
    const user = userEvent.setup();
    await openCalendar();
    await pushMonth('2025-03', march);
    // The first free day takes Tab.
    const first = day('Wednesday, March 5, 2025');
    expect(first.tabIndex).toBe(0);
    first.focus();
    await user.keyboard('{ArrowRight}');
    expect(document.activeElement).toBe(day('Thursday, March 6, 2025'));
    await user.keyboard('{ArrowDown}');
    expect(document.activeElement).toBe(day('Thursday, March 13, 2025, no available times'));
    await user.keyboard('{Enter}'); // a day without times is not chosen
    expect(screen.queryByRole('group', { name: /^Times on/ })).toBeNull();
    await user.keyboard('{PageDown}');
    expect(screen.getByRole('heading', { level: 2, name: 'April 2025' })).toBeTruthy();
    // Focus moved at once, to the day (not yet choosable) of the month still loading.
    expect(document.activeElement).toBe(day('Sunday, April 13, 2025, looking for available times'));
    await pushMonth('2025-04', [slot('2025-04-13T10:00')]);
    expect(document.activeElement).toBe(day('Sunday, April 13, 2025'));
    await user.keyboard('{Enter}');
    expect(screen.getByRole('group', { name: 'Times on Sunday, April 13, 2025 (Japan Standard Time)' })).toBeTruthy();
  });

  it('keeps the grid and the focus while the next month loads, and the keys pressed meanwhile', async () => {
    const user = userEvent.setup();
    await openCalendar();
    await pushMonth('2025-03', march);
    const grid = screen.getByRole('grid', { name: 'March 2025' });
    day('Thursday, March 20, 2025').focus();
    await user.keyboard('{ArrowDown}{ArrowDown}'); // March 27, then April 3: a month not loaded yet
    // The same grid, now April's, busy; the move was not lost and focus is on a day of it.
    expect(screen.getByRole('grid', { name: 'April 2025' })).toBe(grid);
    expect(grid.getAttribute('aria-busy')).toBe('true');
    const calendar = grid.closest<HTMLElement>('.booking-calendar');
    if (!calendar) throw new Error('the grid is not in the calendar');
    const status = within(calendar).getByRole('status');
    expect(status.textContent).toContain('Looking for available times…');
    const april3 = day('Thursday, April 3, 2025, looking for available times');
    expect(document.activeElement).toBe(april3);
    expect(april3.getAttribute('aria-disabled')).toBe('true');
    expect(april3.tabIndex).toBe(0);
    expect(grid.querySelectorAll('button[tabindex="0"]')).toHaveLength(1);
    await user.keyboard('{Enter}'); // not choosable yet
    expect(screen.queryByRole('group', { name: /^Times on/ })).toBeNull();

    // Keys pressed during the load still move the focus, day by day, across months too.
    await user.keyboard('{ArrowRight}{ArrowRight}{ArrowDown}');
    const april12 = day('Saturday, April 12, 2025, looking for available times');
    expect(document.activeElement).toBe(april12);
    expect(april12.tabIndex).toBe(0);
    await user.keyboard('{PageDown}'); // May, not loaded either
    expect(document.activeElement).toBe(day('Monday, May 12, 2025, looking for available times'));
    await user.keyboard('{PageUp}');
    const april12Again = day('Saturday, April 12, 2025, looking for available times');
    expect(document.activeElement).toBe(april12Again);

    // The times arrive: the focused day becomes choosable where it is, focus untouched.
    await pushMonth('2025-04', [slot('2025-04-12T10:00')]);
    expect(grid.hasAttribute('aria-busy')).toBe(false);
    expect(status.textContent).toBe('');
    expect(screen.getByRole('grid', { name: 'April 2025' })).toBe(grid);
    expect(document.activeElement).toBe(april12Again);
    expect(april12Again.getAttribute('aria-disabled')).toBeNull();
    expect(april12Again.getAttribute('aria-label')).toBe('Saturday, April 12, 2025');
    await user.keyboard('{Enter}');
    expect(screen.getByRole('group', { name: 'Times on Saturday, April 12, 2025 (Japan Standard Time)' })).toBeTruthy();
    expect(document.activeElement).toBe(april12Again);
  });

  it('says when nothing is free at all', async () => {
    server.on('/functions/vacancies-read', () => reply({ timezone: 'Asia/Tokyo', slots: [] }));
    await openCalendar();
    await pushMonth('2025-03', []);
    const notice = await screen.findByText(/No times are available at the moment/);
    expect(notice.getAttribute('role')).toBe('status');
    expect(within(notice).getByRole('link', { name: 'Contact us' }).getAttribute('href')).toBe('/contact');
  });

  it('offers only days inside the pregnancy window for a prenatal service, and says why', async () => {
    // Due 19 July 2025: weeks 10 to 22 run from 21 December 2024 to 15 March 2025.
    await openCalendar({
      category: 'prenatal',
      intake: { currentPregnancy: { isPregnant: 1, edd: '2025-07-19' } },
      service: { gestationWeeks: { min: 10, max: 22 } },
    });
    await pushMonth('2025-03', march, 'prenatal-svc');
    expect(day('Wednesday, March 5, 2025').getAttribute('aria-disabled')).toBeNull();
    expect(day('Thursday, March 20, 2025, outside the period for this service').getAttribute('aria-disabled')).toBe('true');
    expect(
      screen.getByText(
        'For this service, appointments can be made from December 21, 2024 to March 15, 2025 (weeks 10 to 22 of pregnancy, from your due date). Other days cannot be chosen.',
      ),
    ).toBeTruthy();
  });
});

describe('/b/appointment: choosing and holding a time', () => {
  it('date, time, counselor and e-mail language, then "Hold this time" holds it and goes to the review', async () => {
    const send = fakeSaves();
    server.on('/functions/appointment-hold', () => reply({ holdExpiresAt: '2025-03-03T00:10:00.000Z' }));
    const user = userEvent.setup();
    await openCalendar();
    await pushMonth('2025-03', march);

    await user.click(day('Wednesday, March 5, 2025'));
    expect(day('Wednesday, March 5, 2025').closest('td')?.getAttribute('aria-selected')).toBe('true');
    const times = screen.getByRole('group', { name: 'Times on Wednesday, March 5, 2025 (Japan Standard Time)' });
    expect(within(times).getAllByRole('radio').map((radio) => radio.closest('label')?.textContent)).toEqual(['10:00', '11:00']);
    await user.click(within(times).getByRole('radio', { name: '10:00' }));

    const counselors = screen.getByRole('group', { name: 'Counselor' });
    expect(within(counselors).getByRole('radio', { name: 'Any counselor' })).toHaveProperty('checked', true);
    await user.click(within(counselors).getByRole('radio', { name: 'Counselor c-tanaka' }));

    const language = screen.getByRole('group', { name: 'Language of your e-mails' });
    expect(within(language).getByRole('radio', { name: 'English' })).toHaveProperty('checked', true);
    await user.click(within(language).getByRole('radio', { name: '日本語' }));

    await user.click(screen.getByRole('button', { name: 'Hold this time' }));
    await screen.findByRole('heading', { level: 1, name: 'Review and submit' }, { timeout: 5000 });
    expect(send).toHaveBeenCalledWith('appointments/a1', { locale: 'ja' });
    expect(server.calls('appointment-hold')).toEqual([
      { appointmentId: 'a1', start: '2025-03-05T10:00:00+09:00', counselorId: 'c-tanaka', personTimezone: 'Asia/Tokyo' },
    ]);
  });

  it('asks for a date, then a time, before holding', async () => {
    const user = userEvent.setup();
    await openCalendar();
    await pushMonth('2025-03', march);
    await user.click(screen.getByRole('button', { name: 'Hold this time' }));
    expect((await screen.findByText('Please choose a date.')).getAttribute('role')).toBe('alert');
    await user.click(day('Wednesday, March 5, 2025'));
    await user.click(screen.getByRole('button', { name: 'Hold this time' }));
    expect((await screen.findByText('Please choose a time.')).getAttribute('role')).toBe('alert');
    expect(server.calls('appointment-hold')).toEqual([]);
  });

  it('tells at once when someone takes the chosen time, and offers the nearest free ones', async () => {
    const user = userEvent.setup();
    await choose5MarchAt10(user);

    // Someone else holds 10:00: the month document no longer lists it.
    await pushMonth('2025-03', march.slice(1));
    const alert = await screen.findByRole('alert');
    expect(within(alert).getByText('Sorry, Wed, Mar 5, 10:00 Japan Standard Time has just been taken. Please choose another time.')).toBeTruthy();
    expect(within(alert).getAllByRole('button').map((button) => button.textContent)).toEqual([
      'Wed, Mar 5, 11:00 Japan Standard Time',
      'Thu, Mar 6, 09:00 Japan Standard Time',
      'Thu, Mar 20, 14:00 Japan Standard Time',
    ]);
    expect(screen.queryByRole('radio', { name: '10:00' })).toBeNull();

    await user.click(within(alert).getByRole('button', { name: 'Thu, Mar 6, 09:00 Japan Standard Time' }));
    expect(screen.queryByRole('alert')).toBeNull();
    expect(screen.getByRole('group', { name: 'Times on Thursday, March 6, 2025 (Japan Standard Time)' })).toBeTruthy();
    expect(screen.getByRole('radio', { name: '09:00' })).toHaveProperty('checked', true);
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Hold this time' }));
  });

  it('a particular counselor is chosen before the time: the calendar then offers only their times', async () => {
    const user = userEvent.setup();
    await openCalendar();
    await pushMonth('2025-03', march);
    const counselors = await screen.findByRole('group', { name: 'Counselor' });
    const grid = screen.getByRole('grid', { name: 'March 2025' });
    expect(counselors.compareDocumentPosition(grid) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    await user.click(within(counselors).getByRole('radio', { name: 'Counselor c-tanaka' }));
    await user.click(day('Wednesday, March 5, 2025'));
    const times = screen.getByRole('group', { name: 'Times on Wednesday, March 5, 2025 (Japan Standard Time)' });
    // 11:00 is c-sato's alone.
    expect(within(times).getAllByRole('radio').map((radio) => radio.getAttribute('id'))).toHaveLength(1);
    expect(within(times).getByRole('radio', { name: '10:00' })).toBeTruthy();
    await user.click(within(counselors).getByRole('radio', { name: 'Any counselor' }));
    expect(within(times).getAllByRole('radio')).toHaveLength(2);
  });

  it('keeps the time with "any counselor" when only the chosen counselor is gone', async () => {
    const user = userEvent.setup();
    await choose5MarchAt10(user);
    await user.click(screen.getByRole('radio', { name: 'Counselor c-tanaka' }));
    await pushMonth('2025-03', [slot('2025-03-05T10:00', ['c-sato']), ...march.slice(1)]);
    expect(await screen.findByRole('alert')).toHaveProperty(
      'textContent',
      'The counselor you chose is no longer free at Wed, Mar 5, 10:00 Japan Standard Time. "Any counselor" is now selected; you can keep the time or choose another one.',
    );
    expect(screen.getByRole('radio', { name: '10:00' })).toHaveProperty('checked', true);
    expect(screen.getByRole('radio', { name: 'Any counselor' })).toHaveProperty('checked', true);
  });

  it('shows the alternatives of a refused hold (ABORTED)', async () => {
    fakeSaves();
    server.on('/functions/appointment-hold', () =>
      refuse('ABORTED', 409, 'This time has just been taken. Please choose another.', {
        alternatives: [slot('2025-03-05T11:00', ['c-sato']), slot('2025-03-04T15:00', ['c-brown'])],
      }),
    );
    const user = userEvent.setup();
    await choose5MarchAt10(user);
    await user.click(screen.getByRole('button', { name: 'Hold this time' }));
    const alert = await screen.findByRole('alert');
    expect(within(alert).getByText('Sorry, Wed, Mar 5, 10:00 Japan Standard Time has just been taken. Please choose another time.')).toBeTruthy();
    expect(within(alert).getAllByRole('button').map((button) => button.textContent)).toEqual([
      'Tue, Mar 4, 15:00 Japan Standard Time',
      'Wed, Mar 5, 11:00 Japan Standard Time',
    ]);
    expect(view?.router.state.location.pathname).toBe('/b/appointment');
    await user.click(within(alert).getByRole('button', { name: 'Wed, Mar 5, 11:00 Japan Standard Time' }));
    expect(screen.getByRole('radio', { name: '11:00' })).toHaveProperty('checked', true);
  });

  it('says when the booking has held times for as long as it may, and when it may again', async () => {
    fakeSaves();
    refuseAtHoldLimit();
    const user = userEvent.setup();
    await choose5MarchAt10(user);
    await user.click(screen.getByRole('button', { name: 'Hold this time' }));
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toBe('This booking has kept a time on hold for as long as allowed. You can choose a time again from 09:41.');
    expect(view?.router.state.location.pathname).toBe('/b/appointment');
  });

  it('says so in Japanese too', async () => {
    fakeSaves();
    refuseAtHoldLimit();
    const user = userEvent.setup();
    await choose5MarchAt10(user, 'ja');
    await user.click(screen.getByRole('button', { name: 'この日時を仮押さえする' }));
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toBe('この予約で日時を仮押さえできる時間の上限に達しました。09:41以降にもう一度日時を選べます。');
  });

  it('leads to the consent when a hold is refused for want of it', async () => {
    fakeSaves();
    server.on('/functions/appointment-hold', () =>
      refuse('INVALID_ARGUMENT', 400, 'Consent to the handling of health and genetic information is required first.', {
        fields: { consent: 'Consent to the handling of health and genetic information is required first.' },
        codes: { consent: 'consentRequired' },
      }),
    );
    const user = userEvent.setup();
    await choose5MarchAt10(user);
    await user.click(screen.getByRole('button', { name: 'Hold this time' }));
    const alert = await screen.findByRole('alert');
    expect(within(alert).getByText(/Please agree to the handling of your information first\./)).toBeTruthy();
    expect(within(alert).getByRole('link', { name: 'Go to the consent' }).getAttribute('href')).toMatch(/^\/b\//);
  });

  it('shows a held time chosen already, with a way on to the review', async () => {
    await openCalendar({
      fields: { patientRole: 90, date: '2025-03-05', time: '11:00', timezone: 'Asia/Tokyo', counselorId: 'c-brown', holdExpiresAt: '2025-03-03T00:08:00.000Z' },
    });
    // The shared month leaves out the person's own held time; the screen puts it back.
    await pushMonth('2025-03', march);
    expect(screen.getByText(/You are holding Wed, Mar 5, 11:00 Japan Standard Time\./)).toBeTruthy();
    await waitFor(() => {
      expect(screen.getByRole('radio', { name: '11:00' })).toHaveProperty('checked', true);
    });
    expect(screen.getByRole('radio', { name: 'Counselor c-brown' })).toHaveProperty('checked', true);
    expect(screen.getByRole('link', { name: 'Continue to the review' }).getAttribute('href')).toBe('/b/review');
  });

  it('speaks Japanese', async () => {
    const user = userEvent.setup();
    await openCalendar({}, 'ja');
    await pushMonth('2025-03', march);
    expect(screen.getByRole('grid', { name: '2025年3月' })).toBeTruthy();
    expect(screen.getByText('日時はクリニックのタイムゾーン（日本標準時）で表示しています。')).toBeTruthy();
    expect(day('2025年3月4日火曜日、空きなし').getAttribute('aria-disabled')).toBe('true');
    await user.click(day('2025年3月5日水曜日'));
    const times = screen.getByRole('group', { name: '2025年3月5日水曜日の時間（日本標準時）' });
    await user.click(within(times).getByRole('radio', { name: '10:00' }));
    expect(screen.getByRole('radio', { name: '指定なし' })).toHaveProperty('checked', true);
    expect(screen.getByRole('radio', { name: 'カウンセラー c-sato' })).toBeTruthy();
    expect(screen.getByRole('group', { name: 'メールの言語' })).toBeTruthy();
    expect(screen.getByRole('radio', { name: '日本語' })).toHaveProperty('checked', true);
    expect(screen.getByRole('button', { name: 'この日時を仮押さえする' })).toBeTruthy();
    await pushMonth('2025-03', march.slice(1));
    expect((await screen.findByRole('alert')).textContent).toContain(
      '申し訳ありません。3月5日(水) 10:00 日本標準時はたった今ほかの方の予約で埋まりました。別の時間を選んでください。',
    );
  });
});
